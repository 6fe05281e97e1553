package dev.rayscale.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.rayscale.events.codec.EventJson;
import dev.rayscale.sim.Workload;
import io.quarkus.test.junit.main.LaunchResult;
import io.quarkus.test.junit.main.QuarkusMainLauncher;
import io.quarkus.test.junit.main.QuarkusMainTest;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code rayscale tune} as a user runs it, on the golden walk-through recording the demo made. */
@QuarkusMainTest
class TuneCommandTest {

    private static final String GOLDEN = "../audit/src/main/resources/dev/rayscale/audit/golden/walkthrough.events.jsonl.gz";

    private static String last(LaunchResult result) {
        List<String> lines = result.getOutput().lines().toList();
        return lines.get(lines.size() - 1);
    }

    @Test
    void calibratesRecommendsAndWritesJsonAndHtml(QuarkusMainLauncher launcher, @TempDir Path folder) throws Exception {
        Path json = folder.resolve("tune.json");
        Path html = folder.resolve("tune.html");

        LaunchResult result = launcher.launch("tune", "--file", GOLDEN, "--grid", "idleTimeoutSeconds=15,60", "--objective", "cost",
                "--json", json.toString(), "--html", html.toString());

        assertThat(result.exitCode()).as(result.getOutput()).isZero();
        assertThat(result.getOutput()).contains("calibration: the recorded policy replayed").contains("recommended: ");
        assertThat(last(result)).matches("tune: policies=2 calibration_error_pct=\\d+\\.\\d recommended=idleTimeoutSeconds=15 "
                + "cost_change_pct=-\\d+\\.\\d wait_p95_change_s=-?\\d+\\.\\d");
        JsonNode report = EventJson.mapper().readTree(json.toFile());
        assertThat(report.path("calibration").path("errorPct").asDouble()).isLessThanOrEqualTo(10);
        assertThat(report.path("policies")).hasSize(3);
        assertThat(report.path("summary").asText()).isEqualTo(last(result));
        assertThat(Files.readString(html)).contains("<svg").contains("Pareto front").contains("Recommended: idleTimeoutSeconds=15");
    }

    @Test
    void aRecordingOfTwoClustersNeedsOneNamed(QuarkusMainLauncher launcher, @TempDir Path folder) throws Exception {
        String golden;
        try (InputStream in = new GZIPInputStream(Files.newInputStream(Path.of(GOLDEN)))) {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            in.transferTo(bytes);
            golden = bytes.toString(StandardCharsets.UTF_8);
        }
        Path two = folder.resolve("two.jsonl");
        Files.writeString(two, golden + golden.replace("raycluster-walkthrough", "raycluster-other"));

        LaunchResult both = launcher.launch("tune", "--file", two.toString(), "--grid", "idleTimeoutSeconds=30");
        LaunchResult one = launcher.launch("tune", "--file", two.toString(), "--grid", "idleTimeoutSeconds=30", "--cluster",
                "default/raycluster-other");

        assertThat(both.exitCode()).isEqualTo(2);
        assertThat(both.getErrorOutput()).contains("holds 2 clusters").contains("--cluster");
        assertThat(one.exitCode()).as(one.getErrorOutput()).isZero();
        assertThat(one.getOutput()).contains("tune default/raycluster-other:");
    }

    @Test
    void writesTheReconstructedWorkloadAsAScenario(QuarkusMainLauncher launcher, @TempDir Path folder) {
        Path scenario = folder.resolve("walkthrough.yaml");

        LaunchResult result = launcher.launch("tune", "--file", GOLDEN, "--workload", scenario.toString());

        assertThat(result.exitCode()).as(result.getErrorOutput()).isZero();
        assertThat(last(result)).startsWith("tune: workload=" + scenario + " events=1 seconds=");
        Workload workload = Workload.read(scenario);
        assertThat(workload.events()).singleElement().satisfies(event -> assertThat(event.tasks().count()).isEqualTo(15));
    }

    @Test
    void badInputIsExitStatusTwo(QuarkusMainLauncher launcher, @TempDir Path folder) {
        LaunchResult both = launcher.launch("tune", "--file", GOLDEN, "--objective", "cost", "--wait-budget", "30");
        assertThat(both.exitCode()).isEqualTo(2);
        assertThat(both.getErrorOutput()).contains("mutually exclusive");
        LaunchResult badValue = launcher.launch("tune", "--file", GOLDEN, "--grid", "idleTimeoutSeconds=soon");
        assertThat(badValue.exitCode()).isEqualTo(2);
        assertThat(badValue.getErrorOutput()).contains("idleTimeoutSeconds=soon");
        assertThat(launcher.launch("tune", "--file", GOLDEN, "--json", folder.resolve("no/such/folder.json").toString()).exitCode())
                .isEqualTo(2);
        assertThat(launcher.launch("tune", "--file", GOLDEN, "--grid", "idleTimeout=30").exitCode()).isEqualTo(2);
        assertThat(launcher.launch("tune", "--file", GOLDEN, "--objective", "fast").exitCode()).isEqualTo(2);
        assertThat(launcher.launch("tune", "--file", folder.resolve("absent.jsonl").toString()).exitCode()).isEqualTo(2);
        LaunchResult empty = launcher.launch("tune", "--file", GOLDEN, "--cluster", "default/none");
        assertThat(empty.exitCode()).isEqualTo(2);
        assertThat(empty.getErrorOutput()).contains("no snapshots");
    }
}
