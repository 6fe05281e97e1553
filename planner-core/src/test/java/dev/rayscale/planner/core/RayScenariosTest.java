package dev.rayscale.planner.core;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import dev.rayscale.events.Resources;
import dev.rayscale.events.ShapeCount;
import dev.rayscale.events.ScaleDecision;
import dev.rayscale.events.codec.EventJson;
import dev.rayscale.scenarios.RayAnswer;
import dev.rayscale.scenarios.Scenario;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every planner scenario against the answer Ray's own v2 scheduler gave (pure bin-packing, no launch
 * rate limit). Where the planner deliberately differs, {@link #DEVIATIONS} says what it does instead
 * and why; everything else must match field by field. Which of several identical idle nodes is
 * terminated may differ, so terminations compare as counts per (type, cause).
 */
class RayScenariosTest {

    /** Scenario -> the planner's own answer where Ray's is wrong for KubeRay, with the reason. */
    record Deviation(String why, Map<String, Integer> nodesToLaunch, List<ShapeCount> infeasibleTasks) {

        Deviation(String why, Map<String, Integer> nodesToLaunch) {
            this(why, nodesToLaunch, null);
        }
    }

    static final Map<String, Deviation> DEVIATIONS = Map.of(
            "p08_min_workers_1_demand", new Deviation(
                    "v2 counts the head node towards the head type's min_workers; a KubeRay head is its own group, so "
                            + "minReplicas 2 means two workers (as Ray v1 and Ray's own test say). The demand fits on the head.",
                    Map.of("p2.8xlarge", 2)),
            "p11_min_workers3_bin_packing", new Deviation(
                    "v2 counts the head towards min_workers 3; with the head apart, one more p2.8xlarge is needed for "
                            + "minReplicas and the {GPU: 1} fits on it (Ray v1 and Ray's own test agree).",
                    Map.of("p2.8xlarge", 1)),
            "p12_launch_limits", new Deviation(
                    "the scenario lists no head node, and Ray sizes its node cap as max_workers + 1 for the head, so it "
                            + "fills the head's slot with a fourth worker. max_workers caps workers at 3: two run and one "
                            + "is launching, so the planner launches none and reports 17 tasks (not 16) blocked by the cap.",
                    Map.of(), List.of(new ShapeCount(Resources.of("GPU", "8"), 17))));

    static List<String> scenarios() throws IOException, URISyntaxException {
        try (Stream<Path> files = Files.list(folder().resolve("scenarios"))) {
            return files.map(path -> path.getFileName().toString().replace(".json", "")).sorted().toList();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("scenarios")
    void matchesRayV2OrDeviatesOnPurpose(String name) throws Exception {
        RayAnswer ours = answer(name, true);
        JsonNode golden = EventJson.mapper().readTree(folder().resolve("golden/" + name + ".v2.json").toFile());
        assertThat(golden.has("error")).as("Ray raised on this input; nothing to compare").isFalse();

        Deviation deviation = DEVIATIONS.get(name);
        Map<String, Integer> expectedLaunch = deviation != null ? deviation.nodesToLaunch() : counts(golden.path("nodes_to_launch"));
        assertThat(ours.nodesToLaunch()).as("nodes_to_launch").isEqualTo(expectedLaunch);
        assertThat(terminations(ours)).as("to_terminate (count per type and cause)").isEqualTo(terminations(golden.path("to_terminate")));
        List<ShapeCount> expectedTasks = deviation != null && deviation.infeasibleTasks() != null
                ? deviation.infeasibleTasks() : read(golden.path("infeasible_resource_requests"), SHAPES);
        assertThat(ours.infeasibleResourceRequests()).as("infeasible_resource_requests").containsExactlyInAnyOrderElementsOf(expectedTasks);
        assertThat(ours.infeasibleGangResourceRequests()).as("infeasible_gang_resource_requests")
                .containsExactlyInAnyOrderElementsOf(read(golden.path("infeasible_gang_resource_requests"), IDS));
        assertThat(ours.infeasibleClusterResourceConstraints().stream().map(Set::copyOf).toList())
                .as("infeasible_cluster_resource_constraints")
                .containsExactlyInAnyOrderElementsOf(read(golden.path("infeasible_cluster_resource_constraints"), CONSTRAINTS)
                        .stream().map(Set::copyOf).toList());
    }

    static RayAnswer answer(String name, boolean ignoreUpscalingSpeed) throws Exception {
        Scenario scenario = Scenario.read(folder().resolve("scenarios/" + name + ".json"));
        ScaleDecision decision = new Planner(PlannerSettings.defaults("test")).plan(scenario.snapshot(ignoreUpscalingSpeed));
        return RayAnswer.of(decision);
    }

    static Path folder() throws URISyntaxException {
        return Path.of(RayScenariosTest.class.getClassLoader().getResource("planner-scenarios").toURI());
    }

    private static Map<String, Integer> counts(JsonNode object) {
        Map<String, Integer> counts = new TreeMap<>();
        object.fields().forEachRemaining(entry -> counts.put(entry.getKey(), entry.getValue().asInt()));
        return counts;
    }

    private static Map<String, Integer> terminations(RayAnswer answer) {
        Map<String, Integer> counts = new TreeMap<>();
        answer.toTerminate().forEach(t -> counts.merge(t.instanceType() + "/" + t.cause(), 1, Integer::sum));
        return counts;
    }

    private static Map<String, Integer> terminations(JsonNode list) {
        Map<String, Integer> counts = new TreeMap<>();
        list.forEach(t -> counts.merge(t.path("instance_type").asText() + "/" + t.path("cause").asText(), 1, Integer::sum));
        return counts;
    }

    private static final TypeReference<List<ShapeCount>> SHAPES = new TypeReference<>() { };
    private static final TypeReference<List<String>> IDS = new TypeReference<>() { };
    private static final TypeReference<List<List<ShapeCount>>> CONSTRAINTS = new TypeReference<>() { };

    private static <T> T read(JsonNode node, TypeReference<T> type) {
        return EventJson.mapper().convertValue(node, type);
    }
}
