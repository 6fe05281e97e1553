package dev.rayscale.bench;

import dev.rayscale.events.Outcome;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import java.util.function.ToLongFunction;
import java.util.stream.Stream;

/**
 * What the bench saw on the topics, and how each change of demand went through: the first snapshot
 * whose GCS read saw the change, the first decision answering that or a later snapshot, and the first
 * actuation result that acted on one (applied, or nothing to do because the cluster already matched).
 * A snapshot sees a change when its GCS state version is above the version read last before the
 * change (every read bumps it). A change whose first snapshot brought no decision, because the planner's answer to it
 * was to change nothing then (its demand waiting for launches asked for earlier, or covered by pods on their way), is
 * timed to a later decision like any other, and told apart: its time is the policy's, not the pipeline's. Changes made
 * before the measurement began (the warm-up, under the same load) are followed too, so that none is lost unseen, but
 * timed apart. Pure: fed what was read, asked at the end.
 */
public final class Chain {

    /** A decision taken up later than this after its publication is late ({@link ActuatorTimes#late}). */
    static final long LATE_MS = 1_000;

    /**
     * A change of demand the bench made, as the GCS got it: at {@code atMillis} (wall clock) its pull of the raylets' loads
     * carried it, after it had answered read {@code gcsVersion}.
     */
    public record Change(String cluster, long gcsVersion, long atMillis) {
    }

    record Snapshot(String cluster, long gcsVersion, long observedAtMillis, long publishedAtMillis) {
    }

    /** A decision; {@code grows} if it asks for more replicas of some group. */
    record Decision(String snapshotId, long publishedAtMillis, boolean grows) {

        /** A decision that asks for no more replicas. */
        Decision(String snapshotId, long publishedAtMillis) {
            this(snapshotId, publishedAtMillis, false);
        }
    }

    /** A result, with when the actuator took its decision up ({@code receivedAt}) and when it completed it. */
    record Result(String decisionId, Outcome outcome, long receivedAtMillis, long completedAtMillis) {
    }

    /**
     * A change's way through, in milliseconds from the change; -1 where it did not get that far.
     *
     * @param heldWhenSeen whether the planner's answer to the first snapshot that saw the change was to change nothing
     */
    public record Latency(long snapshotMs, long decisionMs, long appliedMs, long pipelineMs, boolean heldWhenSeen) {

        /** Acted on by some actuation result. */
        public boolean complete() {
            return appliedMs >= 0;
        }

        /** Acted on, and answered by the decision of the first snapshot that saw it or of a newer one that superseded it. */
        boolean actedWhenSeen() {
            return complete() && !heldWhenSeen;
        }
    }

    private final List<Change> changes = new ArrayList<>();
    private final Map<String, Snapshot> snapshots = new HashMap<>();
    private final Map<String, Decision> decisions = new HashMap<>();
    private final List<Result> results = new ArrayList<>();
    /** When the API server received each of Rayscale's patches of a cluster's RayCluster, by cluster, in arrival order. */
    private final Map<String, List<Long>> patchesSent = new HashMap<>();
    private long skipped;
    private long skippedWarmingUp;
    private long measuredFromMillis = Long.MIN_VALUE;

    /**
     * Changes made, and decisions published, before {@code millis} (wall clock) are the warm-up's, as are the changes not
     * made until now.
     */
    public synchronized void measureFrom(long millis) {
        measuredFromMillis = millis;
        skippedWarmingUp = skipped;
    }

    public synchronized void changed(Change change) {
        changes.add(change);
    }

    /** A change not made: the cluster was at its largest size. */
    public synchronized void skipped() {
        skipped++;
    }

    /** The API server received a patch of {@code cluster}'s RayCluster from Rayscale at {@code atMillis} (wall clock). */
    public synchronized void patchSent(String cluster, long atMillis) {
        patchesSent.computeIfAbsent(cluster, key -> new ArrayList<>()).add(atMillis);
    }

    synchronized void snapshot(String id, Snapshot snapshot) {
        snapshots.put(id, snapshot);
    }

    synchronized void decision(String id, Decision decision) {
        decisions.putIfAbsent(id, decision);
    }

    synchronized void result(Result result) {
        results.add(result);
    }

    /**
     * The figures so far.
     *
     * @param waitsForLaunches whether a cluster's demand waits, on purpose, for launches asked for earlier (the planner's
     *     upscaling limit): its changes not acted on are counted apart from the lost ones
     * @param changesNothing whether the planner's answer to a snapshot (by id) without a decision of its own was to change
     *     nothing; asked only of those {@link #firstSightsUndecided} names
     */
    public synchronized Account account(Predicate<String> waitsForLaunches, Predicate<String> changesNothing) {
        Map<String, Long> resultAt = new HashMap<>();
        Map<String, Integer> applied = new HashMap<>();
        for (Result result : results) {
            if (result.outcome() == Outcome.APPLIED || result.outcome() == Outcome.NOOP) {
                resultAt.merge(result.decisionId(), result.completedAtMillis(), Math::min);
            }
            if (result.outcome() == Outcome.APPLIED) {
                applied.merge(result.decisionId(), 1, Integer::sum);
            }
        }
        Set<String> answered = new HashSet<>();
        results.forEach(result -> answered.add(result.decisionId()));
        Map<String, List<Reached>> byCluster = reached(resultAt);
        Set<String> decided = decidedSnapshots();
        Predicate<String> held = snapshot -> !decided.contains(snapshot) && changesNothing.test(snapshot);
        List<Latency> latencies = new ArrayList<>();
        List<Latency> warmUp = new ArrayList<>();
        Map<String, Boolean> waiting = new HashMap<>();
        long waitingChanges = 0;
        for (Change change : changes) {
            Latency latency = latency(change, byCluster.getOrDefault(change.cluster(), List.of()), held);
            (measured(change.atMillis()) ? latencies : warmUp).add(latency);
            if (!latency.complete() && waiting.computeIfAbsent(change.cluster(), waitsForLaunches::test)) {
                waitingChanges++;
            }
        }
        long unanswered = decisions.keySet().stream().filter(id -> !answered.contains(id)).count();
        long twice = applied.values().stream().filter(count -> count > 1).count();
        Map<String, Decision> measuredDecisions = new HashMap<>(decisions);
        measuredDecisions.values().removeIf(decision -> !measured(decision.publishedAtMillis()));
        List<Result> measuredResults = results.stream().filter(result -> measuredDecisions.containsKey(result.decisionId())).toList();
        long[] planning = measuredDecisions.values().stream().filter(decision -> snapshots.containsKey(decision.snapshotId()))
                .mapToLong(decision -> decision.publishedAtMillis() - snapshots.get(decision.snapshotId()).publishedAtMillis()).sorted().toArray();
        long[] actuating = resultAt.entrySet().stream().filter(entry -> measuredDecisions.containsKey(entry.getKey()))
                .mapToLong(entry -> entry.getValue() - measuredDecisions.get(entry.getKey()).publishedAtMillis()).sorted().toArray();
        long measuredSnapshots = snapshots.values().stream().filter(snapshot -> measured(snapshot.publishedAtMillis())).count();
        return new Account(latencies, warmUp, skipped - skippedWarmingUp, waitingChanges, unanswered, twice, measuredSnapshots, measuredDecisions.size(),
                measuredResults.size(), planning, actuating, ownTimes(measuredResults, measuredDecisions), actuatorTimes(measuredResults, measuredDecisions));
    }

    /**
     * Rayscale's own time of each applied decision: from its snapshot's publication to the first patch of its cluster the API
     * server received while the actuator applied it, sorted. It leaves out what is not Rayscale's: the GCS's pull and the
     * collector's poll before the snapshot, the API server's answer after the patch.
     */
    private long[] ownTimes(List<Result> measuredResults, Map<String, Decision> measuredDecisions) {
        List<Long> own = new ArrayList<>();
        for (Result result : measuredResults) {
            Decision decision = measuredDecisions.get(result.decisionId());
            Snapshot snapshot = snapshots.get(decision.snapshotId());
            if (result.outcome() != Outcome.APPLIED || snapshot == null) {
                continue;
            }
            patchesSent.getOrDefault(snapshot.cluster(), List.of()).stream()
                    .filter(at -> at >= result.receivedAtMillis() && at <= result.completedAtMillis()).findFirst()
                    .ifPresent(at -> own.add(at - snapshot.publishedAtMillis()));
        }
        return own.stream().mapToLong(Long::longValue).sorted().toArray();
    }

    private ActuatorTimes actuatorTimes(List<Result> measuredResults, Map<String, Decision> measuredDecisions) {
        long[] takenUp = measuredResults.stream()
                .mapToLong(result -> result.receivedAtMillis() - measuredDecisions.get(result.decisionId()).publishedAtMillis()).sorted().toArray();
        long[] growingTakenUp = measuredResults.stream().filter(result -> measuredDecisions.get(result.decisionId()).grows())
                .mapToLong(result -> result.receivedAtMillis() - measuredDecisions.get(result.decisionId()).publishedAtMillis()).sorted().toArray();
        long[] handling = measuredResults.stream().mapToLong(result -> result.completedAtMillis() - result.receivedAtMillis()).sorted().toArray();
        Map<String, List<Result>> byCluster = new HashMap<>();
        results.forEach(result -> byCluster.computeIfAbsent(clusterOf(result.decisionId()), key -> new ArrayList<>()).add(result));
        long late = 0;
        long behind = 0;
        for (Result result : measuredResults) {
            long published = measuredDecisions.get(result.decisionId()).publishedAtMillis();
            if (result.receivedAtMillis() - published > LATE_MS) {
                late++;
                if (byCluster.get(clusterOf(result.decisionId())).stream().anyMatch(before -> before.receivedAtMillis() < result.receivedAtMillis()
                        && before.completedAtMillis() > published && before.completedAtMillis() <= result.receivedAtMillis())) {
                    behind++;
                }
            }
        }
        return new ActuatorTimes(takenUp, growingTakenUp, handling, late, behind);
    }

    /** The cluster a decision is for, by its snapshot; null if its snapshot was not read (or carried no GCS version). */
    private String clusterOf(String decisionId) {
        Decision decision = decisions.get(decisionId);
        Snapshot snapshot = decision == null ? null : snapshots.get(decision.snapshotId());
        return snapshot == null ? null : snapshot.cluster();
    }

    private boolean measured(long atMillis) {
        return atMillis >= measuredFromMillis;
    }

    /**
     * The snapshots that first saw a change and have no decision of their own (superseded, or the planner changed
     * nothing): the ones whose planner's answer {@link #account(Predicate, Predicate)} asks for.
     */
    public synchronized Set<String> firstSightsUndecided() {
        Set<String> decided = decidedSnapshots();
        Map<String, List<Reached>> byCluster = reached(Map.of());
        Set<String> undecided = new HashSet<>();
        for (Change change : changes) {
            List<Reached> reached = byCluster.getOrDefault(change.cluster(), List.of());
            int first = firstAbove(reached, change.gcsVersion());
            if (first < reached.size() && !decided.contains(reached.get(first).id())) {
                undecided.add(reached.get(first).id());
            }
        }
        return undecided;
    }

    private Set<String> decidedSnapshots() {
        Set<String> decided = new HashSet<>();
        decisions.values().forEach(decision -> decided.add(decision.snapshotId()));
        return decided;
    }

    /** Each cluster's snapshots by GCS version, each with the earliest decision and result for it or a later one. */
    private Map<String, List<Reached>> reached(Map<String, Long> resultAt) {
        Map<String, long[]> bySnapshot = new HashMap<>();
        decisions.forEach((id, decision) -> {
            long[] times = bySnapshot.computeIfAbsent(decision.snapshotId(), key -> new long[] {Long.MAX_VALUE, Long.MAX_VALUE});
            times[0] = Math.min(times[0], decision.publishedAtMillis());
            times[1] = Math.min(times[1], resultAt.getOrDefault(id, Long.MAX_VALUE));
        });
        Map<String, List<Reached>> byCluster = new HashMap<>();
        snapshots.forEach((id, snapshot) -> {
            long[] times = bySnapshot.getOrDefault(id, new long[] {Long.MAX_VALUE, Long.MAX_VALUE});
            byCluster.computeIfAbsent(snapshot.cluster(), key -> new ArrayList<>()).add(new Reached(id, snapshot, times[0], times[1]));
        });
        byCluster.values().forEach(Chain::earliestFromHere);
        return byCluster;
    }

    /** A snapshot, and the earliest decision and result for it or any later snapshot of its cluster. */
    private record Reached(String id, Snapshot snapshot, long decidedAt, long actedAt) {
    }

    /** Sorts by GCS version and carries each later snapshot's earliest decision and result back to the earlier ones. */
    private static void earliestFromHere(List<Reached> reached) {
        reached.sort(Comparator.comparingLong(r -> r.snapshot().gcsVersion()));
        long decided = Long.MAX_VALUE;
        long acted = Long.MAX_VALUE;
        for (int i = reached.size() - 1; i >= 0; i--) {
            Reached here = reached.get(i);
            decided = Math.min(decided, here.decidedAt());
            acted = Math.min(acted, here.actedAt());
            reached.set(i, new Reached(here.id(), here.snapshot(), decided, acted));
        }
    }

    private static Latency latency(Change change, List<Reached> reached, Predicate<String> held) {
        int first = firstAbove(reached, change.gcsVersion());
        if (first == reached.size()) {
            return new Latency(-1, -1, -1, -1, false);
        }
        Reached seen = reached.get(first);
        long at = change.atMillis();
        return new Latency(seen.snapshot().publishedAtMillis() - at, since(at, seen.decidedAt()), since(at, seen.actedAt()),
                since(seen.snapshot().observedAtMillis(), seen.actedAt()), held.test(seen.id()));
    }

    private static long since(long from, long to) {
        return to == Long.MAX_VALUE ? -1 : to - from;
    }

    private static int firstAbove(List<Reached> reached, long version) {
        int low = 0;
        int high = reached.size();
        while (low < high) {
            int middle = (low + high) >>> 1;
            if (reached.get(middle).snapshot().gcsVersion() > version) {
                high = middle;
            } else {
                low = middle + 1;
            }
        }
        return low;
    }

    /**
     * Where a decision's time in the actuator goes, for every result (STALE ones included), sorted.
     *
     * @param waitingMs from the decision's publication until the actuator took it up: the broker, the poll, and the
     *     decisions ahead of it
     * @param growingWaitingMs the same, of the decisions that ask for more replicas (the actuator takes their clusters up
     *     first when its workers are busy)
     * @param handlingMs from then until its result was complete: reading, draining, patching
     * @param late decisions taken up more than {@link #LATE_MS} after their publication
     * @param lateBehindTheirCluster of those, the ones taken up when their cluster's previous decision, not yet complete
     *     when they were published, was complete: they waited for it (a cluster's decisions are applied in order)
     */
    public record ActuatorTimes(long[] waitingMs, long[] growingWaitingMs, long[] handlingMs, long late, long lateBehindTheirCluster) {
    }

    /**
     * @param latencies the changes made while measuring
     * @param warmUp the changes made before ({@link #measureFrom}): counted in what is lost, not in the figures
     * @param skipped changes not made while measuring because the cluster was at its largest size
     * @param waitingForLaunches changes not acted on because the planner waits for its cluster's pending launches
     * @param unanswered decisions with no actuation result, warm-up's included
     * @param appliedTwice decisions applied (patched) more than once, warm-up's included
     * @param snapshots snapshots published while measuring; likewise {@code decisions}, and {@code results} (of those decisions)
     * @param planningMs each decision's time from its snapshot's publication to its own, sorted
     * @param actuatingMs each acted-on decision's time from its publication to its first result, sorted
     * @param ownMs Rayscale's own time of each applied decision, from its snapshot's publication to its patch's arrival at
     *     the API server, sorted
     * @param actuator every result's time split where the actuator took its decision up
     */
    public record Account(List<Latency> latencies, List<Latency> warmUp, long skipped, long waitingForLaunches, long unanswered, long appliedTwice,
            long snapshots, int decisions, int results, long[] planningMs, long[] actuatingMs, long[] ownMs, ActuatorTimes actuator) {

        /** Changes that no actuation result acted on, warm-up's included. */
        public long incomplete() {
            return Stream.concat(latencies.stream(), warmUp.stream()).filter(latency -> !latency.complete()).count();
        }

        /**
         * Where the changes no result acted on stopped, warm-up's included: {@code [no snapshot saw them, seen but no decision
         * followed, decided but no result acted]}.
         */
        public long[] incompleteByStage() {
            long[] stages = new long[3];
            Stream.concat(latencies.stream(), warmUp.stream()).filter(latency -> !latency.complete())
                    .forEach(latency -> stages[latency.snapshotMs() < 0 ? 0 : latency.decisionMs() < 0 ? 1 : 2]++);
            return stages;
        }

        /** Changes no result acted on though nothing held them back. */
        public long lostChanges() {
            return incomplete() - waitingForLaunches;
        }

        /** Changes lost, and decisions left without a result. */
        public long lost() {
            return lostChanges() + unanswered;
        }

        /** The {@code q} quantile (0..1) of one stage over the complete changes, in milliseconds; NaN if none. */
        public double quantile(ToLongFunction<Latency> stage, double q) {
            return quantile(stage, q, Latency::complete);
        }

        /** The same over the changes acted on when first seen: the pipeline's own time, without the planner's waits. */
        public double actedQuantile(ToLongFunction<Latency> stage, double q) {
            return quantile(stage, q, Latency::actedWhenSeen);
        }

        /** Changes acted on when first seen. */
        public long actedWhenSeen() {
            return latencies.stream().filter(Latency::actedWhenSeen).count();
        }

        /** Changes for whose first snapshot the planner changed nothing (acted on later or not at all). */
        public long heldWhenSeen() {
            return latencies.stream().filter(Latency::heldWhenSeen).count();
        }

        /** The same over the warm-up's changes acted on. */
        public double warmUpQuantile(ToLongFunction<Latency> stage, double q) {
            return quantile(warmUp.stream().filter(Latency::complete).mapToLong(stage).sorted().toArray(), q);
        }

        private double quantile(ToLongFunction<Latency> stage, double q, Predicate<Latency> which) {
            return quantile(latencies.stream().filter(which).mapToLong(stage).sorted().toArray(), q);
        }

        /** The {@code q} quantile (0..1) of sorted values; NaN if there are none. */
        public static double quantile(long[] sorted, double q) {
            if (sorted.length == 0) {
                return Double.NaN;
            }
            int rank = (int) Math.ceil(q * sorted.length);
            return sorted[Math.max(0, Math.min(sorted.length, rank) - 1)];
        }

        public long max(ToLongFunction<Latency> stage) {
            return latencies.stream().filter(Latency::complete).mapToLong(stage).max().orElse(-1);
        }
    }
}
