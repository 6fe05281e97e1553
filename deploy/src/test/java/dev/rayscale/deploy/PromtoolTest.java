package dev.rayscale.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The chart's alert rules and dashboard queries as Prometheus reads them, with its own promtool (Debian's prometheus
 * package, fetched by scripts/promtool.sh): valid rules, each alert firing on what it is for and not otherwise
 * (src/test/promtool/alerts-test.yaml, series in, alerts out), and every panel's query valid PromQL.
 */
class PromtoolTest {

    private static final Path RULES = Chart.DIRECTORY.resolve("files/alerts.yaml");
    private static final Path TESTS = Path.of("src", "test", "promtool", "alerts-test.yaml").toAbsolutePath();
    private static String promtoolPath;

    @BeforeAll
    static void fetchPromtool() throws Exception {
        Run fetched = run(Chart.DIRECTORY.resolve("../../../scripts/promtool.sh").normalize().toString());
        assertThat(fetched.exit()).as("scripts/promtool.sh:%n%s", fetched.output()).isZero();
        promtoolPath = fetched.output().lines().reduce((first, last) -> last).orElseThrow();
    }

    @Test
    void theRulesAreValid() throws Exception {
        assertThat(promtool("check", "rules", RULES.toString())).contains("SUCCESS: 9 rules found");
    }

    @Test
    void eachAlertFiresOnWhatItIsForAndNotOtherwise() throws Exception {
        assertThat(promtool("test", "rules", TESTS.toString())).contains("SUCCESS");
    }

    /** Each panel's queries, as recording rules, checked as promtool checks rules. */
    @Test
    void everyDashboardQueryIsValidPromql(@TempDir Path work) throws Exception {
        assertThat(promtool("check", "rules", dashboardRules(work).toString())).containsPattern("SUCCESS: (1[6-9]|[2-9][0-9]) rules found");
    }

    /**
     * The per-cluster panels draw a cluster's first decision and first result: each is counted on a series born at 1,
     * which {@code increase()} alone does not count. The panels' own queries, fed series by promtool: {@code ml/new}'s
     * first decision at 10 minutes and first result at 11 are drawn at 12, and nothing is five minutes later; a cluster
     * whose count stands still ({@code ml/old}) is not drawn.
     */
    @Test
    void thePerClusterPanelsDrawAClustersFirstDecisionAndResult(@TempDir Path work) throws Exception {
        Path rules = dashboardRules(work);
        Map<String, Object> firstOfEach = Map.of(
                "interval", "1m",
                "input_series", List.of(
                        series("rayscale_planner_decisions_total{cluster=\"ml/new\",kind=\"SCALE_UP\",pod=\"planner-0\"}", "_x10 1x20"),
                        series("rayscale_planner_decisions_total{cluster=\"ml/old\",kind=\"SCALE_UP\",pod=\"planner-0\"}", "4x30"),
                        series("rayscale_actuator_results_total{cluster=\"ml/new\",outcome=\"FAILED\",pod=\"actuator-0\"}", "_x11 1x20")),
                "promql_expr_test", List.of(
                        expect("dashboard:panel_1_A", "12m", sample("dashboard:panel_1_A{cluster=\"ml/new\",kind=\"SCALE_UP\"}", 1)),
                        expect("dashboard:panel_2_A", "12m", sample("dashboard:panel_2_A{cluster=\"ml/new\",outcome=\"FAILED\"}", 1)),
                        expect("dashboard:panel_1_A", "17m"),
                        expect("dashboard:panel_2_A", "17m")));
        Path tests = work.resolve("dashboard-test.yaml");
        new ObjectMapper(new YAMLFactory()).writeValue(tests.toFile(),
                Map.of("rule_files", List.of(rules.toString()), "evaluation_interval", "1m", "tests", List.of(firstOfEach)));

        assertThat(promtool("test", "rules", tests.toString())).contains("SUCCESS");
    }

    /** The dashboard's queries as recording rules {@code dashboard:panel_<id>_<refId>}, Grafana's variables given values. */
    private static Path dashboardRules(Path work) throws IOException {
        ObjectMapper json = new ObjectMapper();
        List<Map<String, String>> rules = new ArrayList<>();
        for (JsonNode panel : json.readTree(Chart.DIRECTORY.resolve("files/grafana-dashboard.json").toFile()).path("panels")) {
            for (JsonNode target : panel.path("targets")) {
                String expr = target.path("expr").asText().replace("$__rate_interval", "5m").replace("$cluster", ".+");
                rules.add(Map.of("record", "dashboard:panel_" + panel.path("id").asInt() + "_" + target.path("refId").asText(), "expr", expr));
            }
        }
        Path file = work.resolve("dashboard-queries.yaml");
        new ObjectMapper(new YAMLFactory()).writeValue(file.toFile(), Map.of("groups", List.of(Map.of("name", "dashboard", "rules", rules))));
        return file;
    }

    private static Map<String, String> series(String series, String values) {
        return Map.of("series", series, "values", values);
    }

    private static Map<String, Object> sample(String labels, double value) {
        return Map.of("labels", labels, "value", value);
    }

    @SafeVarargs
    private static Map<String, Object> expect(String expr, String at, Map<String, Object>... samples) {
        return Map.of("expr", expr, "eval_time", at, "exp_samples", List.of(samples));
    }

    private record Run(int exit, String output) {
    }

    /** Runs promtool with {@code arguments}; it must succeed. Its output. */
    private static String promtool(String... arguments) throws IOException, InterruptedException {
        Run run = run(Stream.concat(Stream.of(promtoolPath), Stream.of(arguments)).toArray(String[]::new));
        assertThat(run.exit()).as(run.output()).isZero();
        return run.output();
    }

    /** Runs a command to its end (two minutes at most), its output and errors read together: the last line is its answer. */
    private static Run run(String... command) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        process.getOutputStream().close();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(2, TimeUnit.MINUTES)).as("%s ends", String.join(" ", command)).isTrue();
        return new Run(process.exitValue(), output);
    }
}
