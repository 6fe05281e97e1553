package dev.rayscale.audit;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.rayscale.events.Outcome;
import dev.rayscale.events.Topics;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AuditorTest {

    @TempDir
    Path folder;

    private final Recording recording = Recording.golden();

    private Audits audit(Recording changed) {
        return Audits.of(new FileRecords(changed.write(folder, "changed.jsonl"), Selection.ALL));
    }

    @Test
    void aCompleteRunHasEveryDecisionWithItsResultAndNoFlag() {
        Audits audit = Audits.of(new FileRecords(Recording.goldenFile(), Selection.ALL));

        assertThat(audit.flags).isEmpty();
        assertThat(audit.totals.complete()).isTrue();
        assertThat(audit.chains).hasSize(recording.of(Topics.DECISIONS).size()).allSatisfy(chain -> {
            assertThat(chain.result()).isNotNull();
            assertThat(chain.snapshotDigest()).contains("groups small-group=");
        });
        assertThat(audit.chains.get(0).result().outcome()).isEqualTo(Outcome.APPLIED);
        assertThat(audit.chains.get(0).snapshotDigest()).contains("15 task(s) waiting");
        assertThat(audit.chains.get(0).toDecide()).isPositive();
        assertThat(audit.totals.outcomes.values().stream().mapToLong(Long::longValue).sum()).isEqualTo(audit.chains.size());
    }

    @Test
    void aDecisionWithoutAResultIsFlagged() {
        ObjectNode third = recording.of(Topics.ACTUATIONS).get(2);

        Audits audit = audit(recording.without(line -> line == third));

        assertThat(audit.kinds()).containsExactly(Flag.Kind.DECISION_WITHOUT_RESULT);
        assertThat(audit.flags.get(0).detail()).contains(recording.data(third).get("decisionId").asText()).contains("no result");
        assertThat(audit.chains).filteredOn(chain -> chain.result() == null).hasSize(1);
        assertThat(audit.totals.complete()).isFalse();
    }

    @Test
    void aDecisionJustBeforeTheRangeEndsIsOpenNotMissing() {
        List<ObjectNode> results = recording.of(Topics.ACTUATIONS);
        ObjectNode last = results.get(results.size() - 1);

        Audits audit = Audits.of(new FileRecords(recording.without(line -> line == last).write(folder, "cut.jsonl"), Selection.ALL),
                Auditor.Options.DEFAULTS);

        assertThat(audit.kinds()).containsExactly(Flag.Kind.OPEN_AT_END);
        assertThat(audit.totals.complete()).isTrue();
    }

    @Test
    void aResultWithoutItsDecisionIsFlagged() {
        ObjectNode third = recording.of(Topics.DECISIONS).get(2);

        Audits audit = audit(recording.without(line -> line == third));

        assertThat(audit.kinds()).containsExactly(Flag.Kind.RESULT_WITHOUT_DECISION);
        assertThat(audit.flags.get(0).position()).startsWith("line ").contains("rayscale.actuations/0@2");
    }

    @Test
    void aDecisionAppliedTwiceIsFlagged() {
        ObjectNode applied = recording.of(Topics.ACTUATIONS).get(0);
        ObjectNode again = applied.deepCopy();
        again.put("id", "another-result");
        again.put("kafkaoffset", 99);
        recording.data(again).put("id", "another-result");

        Audits audit = audit(recording.insertAfter(applied, again));

        assertThat(audit.kinds()).containsExactly(Flag.Kind.APPLIED_TWICE);
        assertThat(audit.flags.get(0).detail()).contains(recording.data(applied).get("decisionId").asText());
    }

    @Test
    void aSnapshotSequenceGoingBackIsFlagged() {
        ObjectNode tenth = recording.of(Topics.SNAPSHOTS).get(10);
        long earlier = recording.data(recording.of(Topics.SNAPSHOTS).get(5)).get("sequence").asLong();
        recording.data(tenth).put("sequence", earlier);

        Audits audit = audit(recording);

        assertThat(audit.kinds()).containsExactly(Flag.Kind.SEQUENCE_REVERSAL);
        assertThat(audit.flags.get(0).detail()).contains("snapshot " + earlier + " after");
    }

    @Test
    void silenceLongerThanTheHeartbeatAllowsIsAGap() {
        Instant from = Instant.parse(recording.data(recording.of(Topics.SNAPSHOTS).get(9)).get("observedAt").asText());
        Instant to = from.plusSeconds(12);

        Audits audit = audit(recording.without(line -> line.path("kafkatopic").asText().equals(Topics.SNAPSHOTS)
                && isBetween(Instant.parse(line.get("data").get("observedAt").asText()), from, to)));

        assertThat(audit.kinds()).containsExactly(Flag.Kind.SNAPSHOT_GAP);
        assertThat(audit.flags.get(0).detail()).contains("no snapshot for 1");
    }

    @Test
    void aDecisionWhoseSnapshotIsMissingIsAGap() {
        ObjectNode decision = recording.of(Topics.DECISIONS).get(2);
        String snapshotId = recording.data(decision).get("snapshotId").asText();

        Audits audit = audit(recording.without(line -> line.path("id").asText().equals(snapshotId)));

        assertThat(audit.kinds()).containsExactly(Flag.Kind.SNAPSHOT_MISSING);
        assertThat(audit.chains.get(2).snapshotDigest()).isNull();
    }

    @Test
    void deadLettersInTheRangeAreFlaggedWithWhereTheyCameFrom() {
        ObjectNode snapshot = recording.of(Topics.SNAPSHOTS).get(3);
        ObjectNode letter = snapshot.deepCopy();
        letter.put("kafkatopic", Topics.deadLetter("scaling-planner"));
        letter.put("kafkaoffset", 0);
        letter.put("kafkaheaders", "{\"dead-letter-reason\":\"the snapshot could not be planned\",\"dead-letter-topic\":\"rayscale.snapshots\","
                + "\"dead-letter-partition\":\"0\",\"dead-letter-offset\":\"3\"}");

        Audits audit = audit(recording.insertAfter(snapshot, letter));

        assertThat(audit.kinds()).containsExactly(Flag.Kind.DEAD_LETTER);
        assertThat(audit.flags.get(0).detail()).contains("rayscale.snapshots/0@3").contains("could not be planned");
        assertThat(audit.totals.deadLetters).isEqualTo(1);
    }

    @Test
    void badLinesAndUnknownVersionsAreFlaggedWithTheirLineAndSkipped() throws IOException {
        ObjectNode snapshot = recording.of(Topics.SNAPSHOTS).get(3);
        ObjectNode future = snapshot.deepCopy();
        recording.data(future).put("schemaVersion", 2);
        Path file = recording.insertAfter(snapshot, future).write(folder, "bad.jsonl");
        Files.writeString(file, Files.readString(file).replaceFirst("\n", "\nnot json at all\n"));

        Audits audit = Audits.of(new FileRecords(file, Selection.ALL));

        assertThat(audit.kinds()).containsExactly(Flag.Kind.BAD_RECORD, Flag.Kind.BAD_RECORD);
        assertThat(audit.flags.get(0).position()).isEqualTo("line 2");
        assertThat(audit.flags.get(1).detail()).contains("schemaVersion");
        assertThat(audit.chains).hasSize(recording.of(Topics.DECISIONS).size());
        assertThat(audit.totals.unreadable).isEqualTo(2);
    }

    @Test
    void aTruncatedFileIsFlaggedAndWhatCameBeforeIsAudited() throws IOException {
        byte[] whole = Files.readAllBytes(Recording.goldenFile());
        Path cut = folder.resolve("cut.jsonl.gz");
        Files.write(cut, Arrays.copyOf(whole, whole.length / 2));

        Audits audit = Audits.of(new FileRecords(cut, Selection.ALL));

        assertThat(audit.kinds()).contains(Flag.Kind.BAD_RECORD);
        assertThat(audit.flags).anySatisfy(flag -> assertThat(flag.detail()).contains("ends early"));
        assertThat(audit.totals.records).isGreaterThan(1);
    }

    @Test
    void aClusterAndATimeRangeSelectWhatIsRead() throws IOException {
        Instant firstDecision = Instant.parse(recording.of(Topics.DECISIONS).get(2).get("kafkatimestamp").asText());
        Path gz = folder.resolve("golden.jsonl.gz");
        try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(gz))) {
            out.write(Files.readAllBytes(recording.write(folder, "golden.jsonl")));
        }

        Audits none = Audits.of(new FileRecords(gz, new Selection(Set.of("other/cluster"), null, null)));
        Audits late = Audits.of(new FileRecords(gz, new Selection(Set.of(), firstDecision, null)));

        assertThat(none.totals.records).isZero();
        assertThat(late.chains).hasSize(recording.of(Topics.DECISIONS).size() - 2);
        assertThat(late.kinds()).as("the first decision's snapshot is just before the range: a note, not a gap")
                .containsExactly(Flag.Kind.BEFORE_RANGE);
        assertThat(late.totals.complete()).isTrue();
    }

    private static boolean isBetween(Instant at, Instant from, Instant to) {
        return at.isAfter(from) && at.isBefore(to);
    }
}
