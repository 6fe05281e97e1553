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
    private static String promtool;

    @BeforeAll
    static void fetchPromtool() throws Exception {
        Run fetched = run(Chart.DIRECTORY.resolve("../../../scripts/promtool.sh").normalize().toString());
        assertThat(fetched.exit()).as("scripts/promtool.sh:%n%s", fetched.output()).isZero();
        promtool = fetched.output().lines().reduce((first, last) -> last).orElseThrow();
    }

    @Test
    void theRulesAreValid() throws Exception {
        Run check = run(promtool, "check", "rules", RULES.toString());
        assertThat(check.exit()).as(check.output()).isZero();
        assertThat(check.output()).contains("SUCCESS: 6 rules found");
    }

    @Test
    void eachAlertFiresOnWhatItIsForAndNotOtherwise() throws Exception {
        Run test = run(promtool, "test", "rules", TESTS.toString());
        assertThat(test.exit()).as(test.output()).isZero();
        assertThat(test.output()).contains("SUCCESS");
    }

    /** Each panel's queries, as recording rules (Grafana's variables given values), checked as promtool checks rules. */
    @Test
    void everyDashboardQueryIsValidPromql(@TempDir Path work) throws Exception {
        ObjectMapper json = new ObjectMapper();
        List<Map<String, String>> rules = new ArrayList<>();
        for (JsonNode panel : json.readTree(Chart.DIRECTORY.resolve("files/grafana-dashboard.json").toFile()).path("panels")) {
            for (JsonNode target : panel.path("targets")) {
                String expr = target.path("expr").asText().replace("$__rate_interval", "5m").replace("$cluster", ".+");
                rules.add(Map.of("record", "dashboard:panel_" + panel.path("id").asInt() + "_" + target.path("refId").asText(), "expr", expr));
            }
        }
        assertThat(rules).as("the dashboard's queries").hasSizeGreaterThan(15);
        Path file = work.resolve("dashboard-queries.yaml");
        new ObjectMapper(new YAMLFactory()).writeValue(file.toFile(), Map.of("groups", List.of(Map.of("name", "dashboard", "rules", rules))));

        Run check = run(promtool, "check", "rules", file.toString());

        assertThat(check.exit()).as(check.output()).isZero();
        assertThat(check.output()).contains("SUCCESS: " + rules.size() + " rules found");
    }

    private record Run(int exit, String output) {
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
