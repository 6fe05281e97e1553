package dev.rayscale.audit;

import com.fasterxml.jackson.databind.JsonNode;
import dev.rayscale.events.ClusterSnapshot;
import dev.rayscale.events.ScaleDecision;
import dev.rayscale.events.codec.EventCodec;
import dev.rayscale.planner.core.Planner;
import dev.rayscale.planner.core.PlannerSettings;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Plans recorded snapshots again with the planner of this build, under the policy each recorded decision
 * used (with {@link PolicyOverrides}, under a changed one), and tells its listener, per recorded decision,
 * how the new plan compares, and, when asked to plan every snapshot, per snapshot no decision answered, what
 * the new plan is. Streams over records in time order; per cluster it holds the newest
 * {@value Auditor#READABLE} snapshots not yet answered (the planner answers a snapshot as it arrives).
 */
public final class Replayer {

    private static final int DIFFERENCES_SHOWN = 8;
    private static final int RECENT_DECISIONS = 64;

    /** How a re-planned decision compares with the recorded one. */
    public enum Verdict {
        IDENTICAL,
        /** Recorded by another planner version: a difference is expected. */
        OTHER_VERSION,
        /** Planned under another policy (the policy hash differs): a difference is expected. */
        OTHER_POLICY,
        /** Same version, same policy, another answer: the planner is not deterministic. A defect. */
        UNEXPLAINED,
        /** The snapshot it answered is not in the recording: it cannot be re-planned. */
        NO_SNAPSHOT
    }

    /**
     * @param snapshot the snapshot the decision answered (as changed by the overrides), null for {@link Verdict#NO_SNAPSHOT}
     * @param replayed the new plan, null for {@link Verdict#NO_SNAPSHOT}
     * @param differences the fields that differ, the first few
     */
    public record Comparison(String cluster, String position, ScaleDecision recorded, ClusterSnapshot snapshot, ScaleDecision replayed,
            Verdict verdict, String explanation, List<String> differences) {
    }

    public interface Listener {

        void compared(Comparison comparison);

        /** A snapshot no recorded decision answered, and its new plan (worth publishing or not). */
        void unanswered(ClusterSnapshot snapshot, ScaleDecision replayed);

        /** A record that is not a readable Rayscale event; dead letters are not told. */
        default void unreadable(Read.Unreadable record) {
        }
    }

    /** The counts of the last line. */
    public static final class Counts {
        public long snapshots;
        public long decisions;
        public long identical;
        public long different;
        public long unexplained;
        public long noSnapshot;
        public long unreadable;
        /** Snapshots that got no decision although the new plan is worth publishing (skipped as too old on arrival, or lost). */
        public long unpublished;
        public final Map<String, Long> explained = new TreeMap<>();

        public String line() {
            return "replay: snapshots=" + snapshots + " decisions=" + decisions + " identical=" + identical + " different=" + different
                    + " unexplained=" + unexplained;
        }
    }

    private static final class ClusterState {
        final HeldSnapshots waiting = new HeldSnapshots(Auditor.READABLE);
        final LinkedHashMap<String, Boolean> decided = new LinkedHashMap<>(RECENT_DECISIONS * 2, 0.75f, false) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, Boolean> eldest) {
                return size() > RECENT_DECISIONS;
            }
        };
        PlannerSettings lastSettings;
    }

    private final PolicyOverrides overrides;
    private final String version;
    private final Listener listener;
    private final boolean everySnapshot;
    private final Map<String, ClusterState> clusters = new HashMap<>();
    private final Map<PlannerSettings, Planner> planners = new HashMap<>();
    private final Counts counts = new Counts();

    /** @param everySnapshot also plan the snapshots no decision answered (what-if; a thorough verify), else only the answered ones */
    public Replayer(PolicyOverrides overrides, String version, Listener listener, boolean everySnapshot) {
        this.overrides = overrides;
        this.version = version;
        this.listener = listener;
        this.everySnapshot = everySnapshot;
    }

    public Counts counts() {
        return counts;
    }

    /** Takes the next record, read ({@link Reads}); records come in time order. */
    public void accept(Read read) {
        Recorded record = read.origin();
        if (read instanceof Read.Unreadable bad) {
            counts.unreadable++;
            listener.unreadable(bad);
        } else if (read instanceof Read.Snapshot snapshot) {
            ClusterState state = state(snapshot.head().cluster().id());
            counts.snapshots++;
            if (everySnapshot) {
                state.waiting.add(snapshot, oldest -> unanswered(state, oldest));
            }
        } else if (read instanceof Read.Event event && event.event() instanceof ScaleDecision decision) {
            decision(decision, event.answered(), record);
        }
    }

    public Counts finish() {
        for (ClusterState state : new TreeMap<>(clusters).values()) {
            state.waiting.drain(held -> unanswered(state, held));
        }
        return counts;
    }

    private ClusterState state(String cluster) {
        return clusters.computeIfAbsent(cluster, id -> new ClusterState());
    }

    /** @param joined the snapshot it answered, read whole while reading ({@link SnapshotJoin}), or null */
    private void decision(ScaleDecision recorded, ClusterSnapshot joined, Recorded record) {
        String cluster = recorded.cluster().id();
        ClusterState state = state(cluster);
        if (state.decided.put(recorded.id(), Boolean.TRUE) != null) {
            return;  // published again: one decision
        }
        counts.decisions++;
        PlannerSettings settings = recorded.planner().defaults() != null ? PlannerSettings.of(recorded.planner().defaults(), version)
                : PlannerSettings.defaults(version);
        state.lastSettings = settings;
        ClusterSnapshot answered = joined;
        if (everySnapshot) {
            // The planner reads a cluster's snapshots in order: those before the answered one no decision will answer.
            HeldSnapshots.Held held = state.waiting.takeThrough(recorded.snapshotId(), older -> unanswered(state, older));
            answered = answered == null && held != null ? held.full() : answered;
        }
        if (answered == null) {
            counts.noSnapshot++;
            counts.different++;
            listener.compared(new Comparison(cluster, record.position(), recorded, null, null, Verdict.NO_SNAPSHOT,
                    "its snapshot " + recorded.snapshotId() + " is not in the recording (or more than " + Auditor.READABLE
                            + " snapshots before it)", List.of()));
            return;
        }
        ClusterSnapshot changed = overrides.apply(answered);
        ScaleDecision replayed = planner(overrides.apply(settings)).plan(changed);
        // Equal events write equal JSON: the trees are built only when the events differ (a decimal's scale, say).
        boolean equal = recorded.equals(replayed);
        JsonNode before = equal ? null : EventCodec.DECISIONS.toTree(recorded);
        JsonNode after = equal ? null : EventCodec.DECISIONS.toTree(replayed);
        Verdict verdict;
        String explanation;
        if (equal || before.equals(after)) {
            verdict = Verdict.IDENTICAL;
            explanation = "identical";
            counts.identical++;
        } else {
            counts.different++;
            if (!recorded.planner().version().equals(version)) {
                verdict = Verdict.OTHER_VERSION;
                explanation = "recorded by planner " + recorded.planner().version() + ", replayed by " + version;
            } else if (!recorded.planner().policyHash().equals(replayed.planner().policyHash())) {
                verdict = Verdict.OTHER_POLICY;
                explanation = "planned under another policy (" + recorded.planner().policyHash() + ", replayed "
                        + replayed.planner().policyHash() + ")";
            } else {
                verdict = Verdict.UNEXPLAINED;
                explanation = "same planner version " + version + " and policy " + recorded.planner().policyHash() + ", another answer";
                counts.unexplained++;
            }
            if (verdict != Verdict.UNEXPLAINED) {
                counts.explained.merge(explanation, 1L, Long::sum);
            }
        }
        listener.compared(new Comparison(cluster, record.position(), recorded, changed, replayed, verdict, explanation,
                verdict == Verdict.IDENTICAL ? List.of() : JsonDiff.between(before, after, DIFFERENCES_SHOWN)));
    }

    private void unanswered(ClusterState state, HeldSnapshots.Held snapshot) {
        if (!everySnapshot) {
            return;
        }
        PlannerSettings settings = state.lastSettings != null ? state.lastSettings : PlannerSettings.defaults(version);
        ClusterSnapshot changed = overrides.apply(snapshot.full());
        ScaleDecision replayed = planner(overrides.apply(settings)).plan(changed);
        if (replayed.worthPublishing()) {
            counts.unpublished++;
        }
        listener.unanswered(changed, replayed);
    }

    private Planner planner(PlannerSettings settings) {
        return planners.computeIfAbsent(settings, Planner::new);
    }
}
