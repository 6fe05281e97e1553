package dev.rayscale.audit;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.rayscale.events.ClusterSnapshot;
import dev.rayscale.events.ScaleDecision;
import dev.rayscale.events.Topics;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReplayerTest {

    @TempDir
    Path folder;

    private final Recording recording = Recording.golden();
    /** The planner version the golden recording was made with: replays here are of the same planner. */
    private final String version = recording.data(recording.of(Topics.DECISIONS).get(0)).get("planner").get("version").asText();

    private String recordedVersion() {
        return version;
    }

    private record Replay(Replayer.Counts counts, List<Replayer.Comparison> comparisons) {
    }

    private Replay replay(Path file, PolicyOverrides overrides, String version) throws IOException {
        List<Replayer.Comparison> comparisons = new ArrayList<>();
        Replayer replayer = new Replayer(overrides, version, new Replayer.Listener() {
            @Override
            public void compared(Replayer.Comparison comparison) {
                comparisons.add(comparison);
            }

            @Override
            public void unanswered(ClusterSnapshot snapshot, ScaleDecision replayed) {
            }
        }, true);
        try (Reads reads = new Reads(new EventReader(true), replayer::accept)) {
            new FileRecords(file, Selection.ALL).forEach(reads);
        }
        return new Replay(replayer.finish(), comparisons);
    }

    private Replay replay(Recording changed) throws IOException {
        return replay(changed.write(folder, "changed.jsonl"), PolicyOverrides.parse(List.of()), recordedVersion());
    }

    @Test
    void anotherAnswerFromTheSameVersionAndPolicyIsUnexplained() throws IOException {
        ObjectNode decision = recording.data(recording.of(Topics.DECISIONS).get(0));
        ((ObjectNode) decision.get("groups").get(0)).put("targetReplicas", 14);

        Replay replay = replay(recording);

        assertThat(replay.counts().unexplained).isEqualTo(1);
        Replayer.Comparison different = replay.comparisons().get(0);
        assertThat(different.verdict()).isEqualTo(Replayer.Verdict.UNEXPLAINED);
        assertThat(different.differences()).containsExactly("$.groups[0].targetReplicas: recorded 14, replayed 15");
    }

    @Test
    void aRecordingFromAnotherPlannerVersionIsExplained() throws IOException {
        ObjectNode decision = recording.data(recording.of(Topics.DECISIONS).get(0));
        ((ObjectNode) decision.get("planner")).put("version", "0.0.9");

        Replay replay = replay(recording);

        assertThat(replay.counts().different).isEqualTo(1);
        assertThat(replay.counts().unexplained).isZero();
        assertThat(replay.comparisons().get(0).verdict()).isEqualTo(Replayer.Verdict.OTHER_VERSION);
        assertThat(replay.counts().explained).containsKey("recorded by planner 0.0.9, replayed by " + recordedVersion());
    }

    @Test
    void aDecisionMadeUnderAnotherPolicyIsExplained() throws IOException {
        ObjectNode decision = recording.data(recording.of(Topics.DECISIONS).get(0));
        ((ObjectNode) decision.get("planner").get("defaults")).put("maxPendingLaunches", 5);

        Replay replay = replay(recording);

        assertThat(replay.comparisons().get(0).verdict()).isEqualTo(Replayer.Verdict.OTHER_POLICY);
        assertThat(replay.comparisons().get(0).differences()).anyMatch(difference -> difference.startsWith("$.groups[0].targetReplicas"));
        assertThat(replay.counts().unexplained).isZero();
    }

    @Test
    void aDecisionWhoseSnapshotIsNotRecordedCannotBeReplanned() throws IOException {
        String snapshotId = recording.data(recording.of(Topics.DECISIONS).get(2)).get("snapshotId").asText();

        Replay replay = replay(recording.without(line -> line.path("id").asText().equals(snapshotId)));

        assertThat(replay.counts().noSnapshot).isEqualTo(1);
        assertThat(replay.counts().identical).isEqualTo(replay.counts().decisions - 1);
        assertThat(replay.counts().unexplained).isZero();
    }

    @Test
    void whatIfAShorterIdleTimeoutRemovesWorkersEarlier() throws IOException {
        WhatIf whatIf = new WhatIf();
        Replayer replayer = new Replayer(PolicyOverrides.parse(List.of("idleTimeoutSeconds=30")), recordedVersion(), whatIf, true);
        try (Reads reads = new Reads(new EventReader(false), replayer::accept)) {
            new FileRecords(Recording.goldenFile(), Selection.ALL).forEach(reads);
        }
        replayer.finish();
        StringWriter text = new StringWriter();
        whatIf.print(new PrintWriter(text), PolicyOverrides.parse(List.of("idleTimeoutSeconds=30")));

        assertThat(text.toString()).contains("open loop").containsPattern("recorded no change \\| what-if small-group \\d+ -> \\d+ \\(remove");
        String row = text.toString().lines().filter(line -> line.contains("small-group") && !line.contains("|")).findFirst().orElseThrow();
        String[] columns = row.trim().split("\\s+");
        assertThat(Double.parseDouble(columns[5])).as("replica-seconds what-if").isLessThan(Double.parseDouble(columns[4]));
    }
}
