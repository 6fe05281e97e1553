package dev.rayscale.audit;

import dev.rayscale.events.ActuationResult;
import dev.rayscale.events.ClusterSnapshot;
import dev.rayscale.events.Outcome;
import dev.rayscale.events.ScaleDecision;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Follows each cluster's chain, snapshot to decision to actuation result, over a stream of records in
 * time order, and tells its listener each decision's chain and everything an auditor must see. What it
 * holds per cluster is bounded (the recent snapshots, the recently answered decisions) but for the
 * decisions still waiting for a result, which a healthy system answers within seconds.
 */
public final class Auditor {

    /** What the audit tells, as it goes. */
    public interface Listener {

        /** A decision with its first result, or, at the end, without one. */
        void chain(Chain chain);

        void flag(Flag flag);
    }

    /**
     * How the audit judges the range.
     *
     * @param maxSilence longest a cluster may go without a snapshot (the collector publishes one at least every heartbeat, 5 s by default)
     * @param edge how close to the range's start or end a missing other end counts as outside the range rather than missing
     * @param keepSnapshots keep whole snapshots for the chains (memory: a window of snapshots per cluster)
     */
    public record Options(Duration maxSilence, Duration edge, boolean keepSnapshots) {

        public static final Options DEFAULTS = new Options(Duration.ofSeconds(30), Duration.ofSeconds(60), false);
    }

    private static final int RECENT_ANSWERED = 64;
    /**
     * Per cluster, the records of the newest snapshots are held so that the one a decision answers can be read whole:
     * the planner answers a snapshot as it arrives, before the collector's next, so a handful is plenty.
     */
    static final int READABLE = 4;

    private final Listener listener;
    private final Options options;
    private final Map<String, ClusterTrail> clusters = new HashMap<>();
    private final Totals totals = new Totals();
    private long lastTimestamp;

    public Auditor(Listener listener, Options options) {
        this.listener = listener;
        this.options = options;
    }

    /** Counts over the whole range, and per cluster. */
    public static final class Totals {
        public long records;
        public long snapshots;
        public long decisions;
        public long results;
        public long unreadable;
        public long deadLetters;
        public final Map<Outcome, Long> outcomes = new TreeMap<>();
        public final Map<Flag.Kind, Long> flags = new TreeMap<>();
        /** Counted for every record: hashed, and sorted only when printed. */
        private final Map<String, long[]> perCluster = new HashMap<>();

        public boolean complete() {
            return flags.entrySet().stream().noneMatch(entry -> entry.getKey().fails() && entry.getValue() > 0);
        }

        /** Per cluster, by name: snapshots, decisions, results, failing flags. */
        public SortedMap<String, long[]> perCluster() {
            return new TreeMap<>(perCluster);
        }

        long[] of(String cluster) {
            return perCluster.computeIfAbsent(cluster, c -> new long[4]);
        }
    }

    private static final class ClusterTrail {
        final long firstTimestamp;
        SnapshotHead lastSnapshot;
        /** With {@link Options#keepSnapshots}, the snapshots still held for the chains (a decision's own comes read with it). */
        final HeldSnapshots readable;
        final SequenceWindow recent = new SequenceWindow();
        final LinkedHashMap<String, Open> open = new LinkedHashMap<>();
        final LinkedHashMap<String, Integer> answered = new LinkedHashMap<>(RECENT_ANSWERED * 2, 0.75f, false) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, Integer> eldest) {
                return size() > RECENT_ANSWERED;
            }
        };

        ClusterTrail(long firstTimestamp, int held) {
            this.firstTimestamp = firstTimestamp;
            this.readable = new HeldSnapshots(held);
        }
    }

    /** A decision waiting for its result, with what its snapshot showed (digest null when not in the recording or no longer held). */
    private record Open(String digest, long waitingTasks, ClusterSnapshot snapshot, ScaleDecision decision, Recorded origin) {
    }

    public Totals totals() {
        return totals;
    }

    /** Takes the next record, read ({@link Reads}); records come in time order. */
    public void accept(Read read) {
        Recorded record = read.origin();
        totals.records++;
        lastTimestamp = Math.max(lastTimestamp, record.timestamp());
        if (read instanceof Read.Unreadable bad) {
            totals.unreadable++;
            flag(record.key(), Flag.Kind.BAD_RECORD, record.timestamp(), bad.reason(), record.position());
        } else if (read instanceof Read.DeadLetter letter) {
            totals.deadLetters++;
            flag(record.key(), Flag.Kind.DEAD_LETTER, record.timestamp(), "set aside from " + letter.from() + ": " + letter.reason()
                    + (letter.truncatedFrom() >= 0 ? " (kept the first bytes of " + letter.truncatedFrom() + ")" : ""), record.position());
        } else if (read instanceof Read.Snapshot snapshot) {
            snapshot(trail(snapshot.head().cluster().id(), record), snapshot, record);
        } else if (read instanceof Read.Event event) {
            ClusterTrail trail = trail(event.event().cluster().id(), record);
            if (event.event() instanceof ScaleDecision decision) {
                decision(trail, decision, event.answered(), record);
            } else if (event.event() instanceof ActuationResult result) {
                result(trail, result, record);
            }
        }
    }

    private ClusterTrail trail(String cluster, Recorded record) {
        return clusters.computeIfAbsent(cluster, id -> new ClusterTrail(record.timestamp(), options.keepSnapshots() ? SequenceWindow.LIMIT : 1));
    }

    private void snapshot(ClusterTrail trail, Read.Snapshot read, Recorded record) {
        SnapshotHead snapshot = read.head();
        String cluster = snapshot.cluster().id();
        SnapshotHead last = trail.lastSnapshot;
        if (last != null && last.id().equals(snapshot.id())) {
            return;  // the same snapshot again (a producer's retry)
        }
        totals.snapshots++;
        totals.of(cluster)[0]++;
        if (last != null) {
            if (snapshot.sequence() <= last.sequence()) {
                flag(cluster, Flag.Kind.SEQUENCE_REVERSAL, record.timestamp(), "snapshot " + snapshot.sequence() + " after " + last.sequence(),
                        record.position());
            } else {
                Duration silence = Duration.between(last.observedAt(), snapshot.observedAt());
                if (silence.compareTo(options.maxSilence()) > 0) {
                    flag(cluster, Flag.Kind.SNAPSHOT_GAP, record.timestamp(), "no snapshot for " + silence.toSeconds() + " s (between "
                            + last.sequence() + " and " + snapshot.sequence() + "; at most " + options.maxSilence().toSeconds() + " s expected)",
                            record.position());
                }
            }
        }
        trail.lastSnapshot = snapshot.sequence() > (last == null ? -1 : last.sequence()) ? snapshot : last;
        trail.recent.add(snapshot.sequence(), snapshot.observedAt().toEpochMilli());
        if (options.keepSnapshots()) {
            trail.readable.add(read, evicted -> {
            });
        }
    }

    /** @param answered the snapshot it answered, read whole while reading ({@link SnapshotJoin}), or null */
    private void decision(ClusterTrail trail, ScaleDecision decision, ClusterSnapshot answered, Recorded record) {
        String cluster = decision.cluster().id();
        if (trail.open.containsKey(decision.id()) || trail.answered.containsKey(decision.id())) {
            return;  // published again (the planner restarted before its offsets were committed): one decision
        }
        totals.decisions++;
        totals.of(cluster)[1]++;
        boolean seen = trail.recent.contains(decision.snapshotSequence());
        if (!seen) {
            // Before any snapshot of the cluster in the range, the decision's own may simply be before the range.
            flag(cluster, trail.lastSnapshot == null ? Flag.Kind.BEFORE_RANGE : Flag.Kind.SNAPSHOT_MISSING, record.timestamp(), "decision "
                    + decision.id() + " answers snapshot " + decision.snapshotSequence() + ", which is not in the recording", record.position());
        }
        ClusterSnapshot whole = answered != null ? answered : trail.readable.full(decision.snapshotId());
        String digest = !seen ? null : whole == null ? "(snapshot " + decision.snapshotSequence() + " is in the recording but "
                + "more than " + READABLE + " snapshots before its decision)" : Digest.of(whole);
        trail.open.put(decision.id(), new Open(digest, whole == null ? -1 : Digest.waitingTasks(whole),
                options.keepSnapshots() ? whole : null, decision, record));
    }

    private void result(ClusterTrail trail, ActuationResult result, Recorded record) {
        String cluster = result.cluster().id();
        totals.results++;
        totals.of(cluster)[2]++;
        totals.outcomes.merge(result.outcome(), 1L, Long::sum);
        Open open = trail.open.remove(result.decisionId());
        if (open != null) {
            trail.answered.put(result.decisionId(), result.outcome() == Outcome.APPLIED ? 1 : 0);
            listener.chain(chain(cluster, open, List.of(result)));
            return;
        }
        Integer applied = trail.answered.get(result.decisionId());
        if (applied != null) {
            if (result.outcome() == Outcome.APPLIED && applied > 0) {
                flag(cluster, Flag.Kind.APPLIED_TWICE, record.timestamp(), "decision " + result.decisionId() + " applied again by result "
                        + result.id(), record.position());
            } else {
                flag(cluster, Flag.Kind.REDELIVERED, record.timestamp(), "decision " + result.decisionId() + " answered again: "
                        + result.outcome() + " (" + result.reason() + ")", record.position());
            }
            trail.answered.put(result.decisionId(), applied + (result.outcome() == Outcome.APPLIED ? 1 : 0));
            return;
        }
        boolean nearStart = result.receivedAt().toEpochMilli() - trail.firstTimestamp <= options.edge().toMillis();
        flag(cluster, nearStart ? Flag.Kind.BEFORE_RANGE : Flag.Kind.RESULT_WITHOUT_DECISION, record.timestamp(), "result " + result.id()
                + " (" + result.outcome() + ") answers decision " + result.decisionId() + ", which is not in the recording", record.position());
    }

    /** Ends the audit: every decision still waiting for a result is told, and flagged unless the range ended before it was due. */
    public Totals finish() {
        for (Map.Entry<String, ClusterTrail> cluster : new TreeMap<>(clusters).entrySet()) {
            for (Open open : cluster.getValue().open.values()) {
                listener.chain(chain(cluster.getKey(), open, List.of()));
                boolean nearEnd = lastTimestamp - open.origin().timestamp() <= options.edge().toMillis();
                flag(cluster.getKey(), nearEnd ? Flag.Kind.OPEN_AT_END : Flag.Kind.DECISION_WITHOUT_RESULT, open.origin().timestamp(),
                        "decision " + open.decision().id() + " (" + Digest.targets(open.decision()) + ") has no result"
                                + (nearEnd ? " yet: the range ends " + Duration.ofMillis(lastTimestamp - open.origin().timestamp()).toSeconds()
                                        + " s after it" : ""), open.origin().position());
            }
            cluster.getValue().open.clear();
        }
        if (totals.records == 0) {
            flag(null, Flag.Kind.NOTHING_READ, 0, "the recording, or the part of it selected, holds no record: an empty audit proves nothing",
                    "-");
        }
        return totals;
    }

    private static Chain chain(String cluster, Open open, List<ActuationResult> results) {
        return new Chain(cluster, open.digest(), open.waitingTasks(), open.snapshot(), open.decision(),
                Instant.ofEpochMilli(open.origin().timestamp()), new ArrayList<>(results));
    }

    private void flag(String cluster, Flag.Kind kind, long timestamp, String detail, String position) {
        String name = cluster == null ? "?" : cluster;
        totals.flags.merge(kind, 1L, Long::sum);
        if (kind.fails()) {
            totals.of(name)[3]++;
        }
        listener.flag(new Flag(name, kind, Instant.ofEpochMilli(timestamp), detail, position));
    }
}
