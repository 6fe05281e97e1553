package dev.rayscale.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.rayscale.events.ScaleDecision;
import dev.rayscale.events.codec.EventCodec;
import dev.rayscale.events.codec.EventJson;
import dev.rayscale.events.codec.EventSchemas;
import io.quarkus.test.junit.main.LaunchResult;
import io.quarkus.test.junit.main.QuarkusMainLauncher;
import io.quarkus.test.junit.main.QuarkusMainTest;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@QuarkusMainTest
class PlanCommandTest {

    private static final String SCENARIOS = "../planner-core/src/test/resources/planner-scenarios/scenarios/";

    @Test
    void plansAScenarioInRaysWords(QuarkusMainLauncher launcher) throws Exception {
        LaunchResult result = launcher.launch("plan", "--scenario", SCENARIOS + "s09_global_max_workers_cap.json", "--ignore-upscaling-speed");

        assertThat(result.exitCode()).isZero();
        JsonNode answer = EventJson.mapper().readTree(result.getOutput());
        assertThat(answer.path("nodes_to_launch").path("worker").asInt()).isEqualTo(8);
        assertThat(answer.path("infeasible_resource_requests").get(0).path("count").asInt()).isEqualTo(7);
        assertThat(answer.fieldNames()).toIterable().containsExactly("nodes_to_launch", "to_terminate", "infeasible_resource_requests",
                "infeasible_gang_resource_requests", "infeasible_cluster_resource_constraints");
    }

    @Test
    void honoursTheUpscalingSpeedUnlessToldNotTo(QuarkusMainLauncher launcher) throws Exception {
        LaunchResult limited = launcher.launch("plan", "--scenario", SCENARIOS + "s01_simple_15_tasks.json");

        assertThat(EventJson.mapper().readTree(limited.getOutput()).path("nodes_to_launch").path("worker").asInt()).isEqualTo(1);
    }

    @Test
    void plansASnapshotIntoADecisionEvent(QuarkusMainLauncher launcher, @TempDir Path folder) throws Exception {
        Path snapshot = folder.resolve("walkthrough.json");
        Files.writeString(snapshot, EventSchemas.readResource("examples/cluster-snapshot/walkthrough.json").toString());

        LaunchResult result = launcher.launch("plan", "--snapshot", snapshot.toString(), "--bench", "50");

        assertThat(result.exitCode()).isZero();
        ScaleDecision decision = EventCodec.DECISIONS.decode(result.getOutput());
        assertThat(decision.groups().get(0).targetReplicas()).isEqualTo(15);
        assertThat(result.getErrorOutput()).containsPattern("plan median_ms=\\d+\\.\\d+ p99_ms=\\d+\\.\\d+");
    }

    @Test
    void saysWhatIsWrongWithAnInvalidSnapshot(QuarkusMainLauncher launcher, @TempDir Path folder) throws Exception {
        Path snapshot = folder.resolve("broken.json");
        Files.writeString(snapshot, "{\"schemaVersion\": 1, \"id\": \"x\"}");

        LaunchResult result = launcher.launch("plan", "--snapshot", snapshot.toString());

        assertThat(result.exitCode()).isEqualTo(1);
        assertThat(result.getErrorOutput()).contains("cannot read", "invalid ClusterSnapshot", "$.cluster");
    }

    @Test
    void needsExactlyOneInput(QuarkusMainLauncher launcher) {
        assertThat(launcher.launch("plan").exitCode()).isEqualTo(2);
    }
}
