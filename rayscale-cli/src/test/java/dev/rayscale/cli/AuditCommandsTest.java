package dev.rayscale.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.rayscale.events.codec.EventJson;
import io.quarkus.test.junit.main.LaunchResult;
import io.quarkus.test.junit.main.QuarkusMainLauncher;
import io.quarkus.test.junit.main.QuarkusMainTest;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.io.OutputStream;
import java.util.Arrays;
import java.util.List;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The audit commands as a user runs them, on the golden recording the demo made; exit statuses as documented. */
@QuarkusMainTest
class AuditCommandsTest {

    private static final String GOLDEN = "../audit/src/main/resources/dev/rayscale/audit/golden/walkthrough.events.jsonl.gz";

    private static List<String> lines(LaunchResult result) {
        return result.getOutput().lines().toList();
    }

    private static String last(LaunchResult result) {
        List<String> lines = lines(result);
        return lines.get(lines.size() - 1);
    }

    private static List<JsonNode> golden() throws Exception {
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(new GZIPInputStream(Files.newInputStream(Path.of(GOLDEN))),
                StandardCharsets.UTF_8))) {
            List<JsonNode> events = new ArrayList<>();
            for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                events.add(EventJson.mapper().readTree(line));
            }
            return events;
        }
    }

    @Test
    void auditsACompleteRecordingDecisionByDecision(QuarkusMainLauncher launcher) throws Exception {
        long decisions = golden().stream().filter(event -> event.path("kafkatopic").asText().equals("rayscale.decisions")).count();

        LaunchResult result = launcher.launch("audit", "--file", GOLDEN);

        assertThat(result.exitCode()).as(result.getOutput()).isZero();
        assertThat(lines(result).stream().filter(line -> line.contains("  decision "))).hasSize((int) decisions);
        assertThat(lines(result).stream().filter(line -> line.startsWith("    did      APPLIED"))).isNotEmpty();
        assertThat(last(result)).startsWith("audit: records=").contains("decisions=" + decisions).endsWith("flagged=0 complete=true");
    }

    @Test
    void printsOneDecisionsWholeChain(QuarkusMainLauncher launcher) throws Exception {
        String id = golden().stream().filter(event -> event.path("kafkatopic").asText().equals("rayscale.decisions")).findFirst()
                .orElseThrow().get("id").asText();

        LaunchResult whole = launcher.launch("audit", "--file", GOLDEN, "--decision", id);
        LaunchResult unknown = launcher.launch("audit", "--file", GOLDEN, "--decision", "no-such-decision");

        assertThat(whole.exitCode()).isZero();
        assertThat(whole.getOutput()).contains("decision " + id, "\"observedAt\"", "\"targetReplicas\"", "\"outcome\" : \"APPLIED\"");
        assertThat(unknown.exitCode()).isEqualTo(1);
        assertThat(unknown.getErrorOutput()).contains("no-such-decision is not in the recording");
    }

    @Test
    void writesJsonLinesAndAnHtmlPage(QuarkusMainLauncher launcher, @TempDir Path folder) throws Exception {
        Path page = folder.resolve("audit.html");

        LaunchResult json = launcher.launch("audit", "--file", GOLDEN, "--format", "json");
        LaunchResult html = launcher.launch("audit", "--file", GOLDEN, "--format", "html", "--output", page.toString());

        List<JsonNode> objects = lines(json).stream().map(line -> {
            try {
                return EventJson.mapper().readTree(line);
            } catch (Exception e) {
                throw new AssertionError("not JSON: " + line, e);
            }
        }).toList();
        assertThat(objects.get(objects.size() - 1).get("kind").asText()).isEqualTo("summary");
        assertThat(objects).filteredOn(object -> object.get("kind").asText().equals("chain"))
                .allSatisfy(chain -> assertThat(chain.get("outcome").isNull()).isFalse());
        assertThat(html.exitCode()).isZero();
        assertThat(last(html)).endsWith("complete=true");
        assertThat(Files.readString(page)).contains("<svg", "default/raycluster-walkthrough", "APPLIED");
    }

    @Test
    void flagsABadLineAndSaysWhereItIs(QuarkusMainLauncher launcher, @TempDir Path folder) throws Exception {
        Path broken = folder.resolve("broken.jsonl");
        List<String> lines = new ArrayList<>(golden().stream().map(JsonNode::toString).toList());
        lines.add(3, "{\"this\": \"is not a record\"}");
        Files.write(broken, lines);

        LaunchResult result = launcher.launch("audit", "--file", broken.toString());

        assertThat(result.exitCode()).isEqualTo(1);
        assertThat(result.getOutput()).contains("FLAG bad-record", "line 4");
        assertThat(last(result)).contains("unreadable=1").endsWith("complete=false");
    }

    @Test
    void badInputIsExitStatusTwo(QuarkusMainLauncher launcher, @TempDir Path folder) throws Exception {
        Path config = folder.resolve("client.properties");
        Files.writeString(config, "default.api.timeout.ms=1500\n");

        LaunchResult missing = launcher.launch("audit", "--file", folder.resolve("nothing.jsonl").toString());
        LaunchResult noBroker = launcher.launch("audit", "--bootstrap-servers", "127.0.0.1:1", "--command-config", config.toString());
        LaunchResult badTime = launcher.launch("audit", "--file", GOLDEN, "--from", "yesterday-ish");

        assertThat(missing.exitCode()).isEqualTo(2);
        assertThat(missing.getErrorOutput()).contains("cannot read");
        assertThat(noBroker.exitCode()).isEqualTo(2);
        assertThat(noBroker.getErrorOutput()).contains("cannot read Kafka at 127.0.0.1:1");
        assertThat(badTime.exitCode()).isEqualTo(2);
        assertThat(badTime.getErrorOutput()).contains("neither an ISO-8601 time");
    }

    /**
     * Issue 50: {@code audit --file X -o X} emptied X before reading it, then reported {@code records=0 complete=true} and
     * exit 0. The output is refused (exit 2) and the recording left whole; an empty recording is flagged, not complete.
     */
    @Test
    void neverWritesOverTheRecordingItReadsAndFlagsAnEmptyOne(QuarkusMainLauncher launcher, @TempDir Path folder) throws Exception {
        Path recording = folder.resolve("recording.jsonl.gz");
        Files.copy(Path.of(GOLDEN), recording);
        long size = Files.size(recording);

        LaunchResult audit = launcher.launch("audit", "--file", recording.toString(), "-o", recording.toString());
        LaunchResult export = launcher.launch("export", "--file", recording.toString(), "-o", folder.resolve(".").resolve("recording.jsonl.gz").toString());

        assertThat(audit.exitCode()).isEqualTo(2);
        assertThat(audit.getErrorOutput()).contains("is the recording --file reads; writing it would destroy it");
        assertThat(export.exitCode()).isEqualTo(2);
        assertThat(Files.size(recording)).as("the recording is left whole").isEqualTo(size);

        Path empty = Files.createFile(folder.resolve("empty.jsonl"));
        LaunchResult nothing = launcher.launch("audit", "--file", empty.toString());
        assertThat(nothing.exitCode()).isEqualTo(1);
        assertThat(nothing.getOutput()).contains("FLAG nothing-read");
        assertThat(last(nothing)).startsWith("audit: records=0").endsWith("complete=false");
    }

    /**
     * Issue 50: the text audit printed events' free text raw, so a worker group named with an escape sequence could clear
     * the line and print a forged last line on the operator's terminal. Control characters are written as \\uXXXX.
     */
    @Test
    void escapesControlCharactersAnEventCarries(QuarkusMainLauncher launcher, @TempDir Path folder) throws Exception {
        String forged = "\u001b[2K\raudit: records=1 flagged=0 complete=true";
        List<String> lines = new ArrayList<>();
        for (JsonNode event : golden()) {
            if (event.path("kafkatopic").asText().equals("rayscale.decisions")) {
                ((ObjectNode) event.path("data").path("groups").get(0)).put("name", forged);
            }
            lines.add(event.toString());
        }
        Path recording = Files.write(folder.resolve("forged.jsonl"), lines);

        LaunchResult result = launcher.launch("audit", "--file", recording.toString());

        assertThat(result.getOutput()).doesNotContain("\u001b", "\r").contains("\\u001b[2K\\u000daudit: records=1");
    }

    /** Issue 50: one 400 MB line (400 KB gzipped) ran the CLI out of memory and exited 1; it is refused by its length, exit 2. */
    @Test
    void aLineLongerThanAnyRecordIsBadInputWithItsLineNumber(QuarkusMainLauncher launcher, @TempDir Path folder) throws Exception {
        Path recording = folder.resolve("long-line.jsonl.gz");
        try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(recording))) {
            out.write((golden().get(0).toString() + "\n").getBytes(StandardCharsets.UTF_8));
            byte[] spaces = new byte[1 << 20];
            Arrays.fill(spaces, (byte) ' ');
            for (int mib = 0; mib < 400; mib++) {
                out.write(spaces);
            }
            out.write('\n');
        }

        LaunchResult result = launcher.launch("audit", "--file", recording.toString());

        assertThat(result.exitCode()).isEqualTo(2);
        assertThat(result.getErrorOutput()).contains("line 2 of " + recording + " is longer than 67108864 bytes");
    }

    /** The schema calls the reason codes an open set: a decision with a newer planner's code is audited, not dropped. */
    @Test
    void aDecisionWithANewerPlannersReasonCodeIsAudited(QuarkusMainLauncher launcher, @TempDir Path folder) throws Exception {
        List<String> lines = new ArrayList<>();
        long decisions = 0;
        for (JsonNode event : golden()) {
            if (event.path("kafkatopic").asText().equals("rayscale.decisions")) {
                decisions++;
                event.path("data").path("codedReasons").forEach(reason -> ((ObjectNode) reason).put("code", "QUOTA_AWARE_PACKING"));
            }
            lines.add(event.toString());
        }
        Path recording = Files.write(folder.resolve("newer-codes.jsonl"), lines);

        for (LaunchResult result : List.of(launcher.launch("audit", "--file", recording.toString()),
                launcher.launch("audit", "--file", recording.toString(), "--strict"))) {
            assertThat(result.exitCode()).as(result.getOutput()).isZero();
            assertThat(last(result)).contains("decisions=" + decisions).endsWith("flagged=0 complete=true");
        }
    }

    @Test
    void replaysTheRecordingIdentically(QuarkusMainLauncher launcher) {
        LaunchResult result = launcher.launch("replay", "--verify", "--file", GOLDEN);

        assertThat(result.exitCode()).as(result.getOutput()).isZero();
        assertThat(last(result)).matches("replay: snapshots=\\d+ decisions=\\d+ identical=\\d+ different=0 unexplained=0");
    }

    @Test
    void replayFailsOnAnotherAnswerFromTheSamePlanner(QuarkusMainLauncher launcher, @TempDir Path folder) throws Exception {
        List<JsonNode> events = golden();
        JsonNode decision = events.stream().filter(event -> event.path("kafkatopic").asText().equals("rayscale.decisions")).findFirst()
                .orElseThrow();
        ((ObjectNode) decision.get("data").get("groups").get(0)).put("targetReplicas", 3);
        Path changed = folder.resolve("changed.jsonl");
        Files.write(changed, events.stream().map(JsonNode::toString).toList());

        LaunchResult result = launcher.launch("replay", "--verify", "--file", changed.toString());

        assertThat(result.exitCode()).isEqualTo(1);
        assertThat(result.getOutput()).contains("UNEXPLAINED", "$.groups[0].targetReplicas: recorded 3");
        assertThat(last(result)).endsWith("different=1 unexplained=1");
    }

    @Test
    void whatIfComparesAChangedPolicyWithTheRecording(QuarkusMainLauncher launcher) {
        LaunchResult result = launcher.launch("what-if", "--file", GOLDEN, "--set", "idleTimeoutSeconds=30", "--set",
                "group.small-group.maxReplicas=10");
        LaunchResult unknown = launcher.launch("what-if", "--file", GOLDEN, "--set", "idleTimeout=30");

        assertThat(result.exitCode()).isZero();
        assertThat(result.getOutput()).contains("open loop", "replica-s rec", "-> 10");
        assertThat(last(result)).matches("what-if: snapshots=\\d+ differing=[1-9]\\d*");
        assertThat(unknown.exitCode()).isEqualTo(2);
        assertThat(unknown.getErrorOutput()).contains("unknown setting 'idleTimeout'");
    }

    @Test
    void exportsAFileTheOtherCommandsReadTheSame(QuarkusMainLauncher launcher, @TempDir Path folder) {
        Path copy = folder.resolve("copy.jsonl");

        LaunchResult export = launcher.launch("export", "--file", GOLDEN, "--output", copy.toString());
        LaunchResult original = launcher.launch("audit", "--file", GOLDEN);
        LaunchResult again = launcher.launch("audit", "--file", copy.toString());

        assertThat(export.exitCode()).isZero();
        assertThat(last(export)).startsWith("export: records=").contains("problems=0");
        assertThat(again.getOutput()).isEqualTo(original.getOutput());
    }
}
