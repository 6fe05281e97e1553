package dev.rayscale.tune;

import dev.rayscale.events.ClusterSnapshot;
import dev.rayscale.events.GangDemand;
import dev.rayscale.events.PendingPod;
import dev.rayscale.events.RayNode;
import dev.rayscale.events.TaskDemand;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Reads one cluster's snapshots, in order, into {@link Moment}s, learning on the way what a moment alone cannot say: how
 * fast the cluster's own clock ran against the recording's (Ray's idle clocks against {@code observedAt}: a demo runs
 * its simulated cluster ten times faster than the wall clock), and how long worker pods took from creation to a Ray node.
 */
final class MomentReader {

    /**
     * Resources no work is keyed on whose use drifts all the time (the object store fills and empties): read, every snapshot
     * would be a moment of its own.
     */
    private static final Set<String> UNREAD = Set.of("memory", "object_store_memory");
    /** Distinct parts of moments kept once: most moments repeat most of the one before. */
    private static final int CANONICAL = 100_000;
    /** Samples kept of each kind: enough for a median, bounded whatever the recording's length. */
    private static final int SAMPLES = 10_000;

    private Instant start;
    private Instant last;
    private final Map<String, long[]> idleSince = new HashMap<>();
    private final List<Double> clockRates = new ArrayList<>();
    /** Worker pods pending now: when created and when last seen pending, in the recording's seconds. */
    private final Map<String, double[]> pendingPods = new HashMap<>();
    private final List<Startup> startups = new ArrayList<>();
    /** The worker pods of the snapshot before (null before the first): a pod not among them is new. */
    private Set<String> previousPods;
    private final Map<Object, Object> canonical = new HashMap<>();
    /** Whether the moments are kept (a recording's), so that sharing their parts pays. */
    private final boolean kept;

    /** @param kept whether the caller keeps the moments it reads (then their equal parts are shared) */
    MomentReader(boolean kept) {
        this.kept = kept;
    }
    /** The time of the snapshot read last, in the recording's seconds. */
    private double previous;

    Moment read(ClusterSnapshot snapshot) {
        if (start == null) {
            start = snapshot.observedAt();
        }
        double at = seconds(snapshot.observedAt());
        Map<String, Integer> replicas = new TreeMap<>();
        snapshot.workerGroups().forEach(group -> replicas.put(group.name(), group.replicas()));
        if (!snapshot.hasRayState()) {
            last = snapshot.observedAt();
            previous = at;
            return new Moment(at, false, Map.of(), Map.of(), Map.of(), List.of(), Map.of(), intern(replicas), 0);
        }
        Map<DemandKey, Long> pending = new LinkedHashMap<>();
        for (TaskDemand task : snapshot.demand().tasks()) {
            pending.merge(DemandKey.task(task.shape(), task.labelSelectors()), task.count(), Long::sum);
        }
        Map<String, GangDemand> gangs = new LinkedHashMap<>();
        snapshot.demand().gangs().forEach(gang -> gangs.put(gang.id(), gang));
        Map<String, Double> used = new TreeMap<>();
        Map<String, Integer> workers = new TreeMap<>();
        Set<String> pods = new HashSet<>();
        Set<String> nodes = new HashSet<>();
        String head = snapshot.headGroup().name();
        for (RayNode node : snapshot.nodes()) {
            node.total().minus(node.available()).asMap().forEach((name, amount) -> {
                if (!UNREAD.contains(name)) {
                    used.merge(name, amount.toBigDecimal().doubleValue(), Double::sum);
                }
            });
            learnClockRate(node, snapshot.observedAt());
            nodes.add(node.nodeId());
            if (node.group().equals(head) || !node.podPresent()) {
                continue;
            }
            workers.merge(node.group(), 1, Integer::sum);
            pods.add(node.podName());
            double[] pendingSince = node.podName() == null ? null : pendingPods.remove(node.podName());
            if (pendingSince != null && startups.size() < SAMPLES) {
                startups.add(new Startup(pendingSince[0], (pendingSince[1] + at) / 2 - pendingSince[0]));
            }
        }
        Set<String> stillPending = new HashSet<>();
        for (PendingPod pod : snapshot.pendingPods()) {
            workers.merge(pod.group(), 1, Integer::sum);
            pods.add(pod.podName());
            stillPending.add(pod.podName());
            pendingPods.computeIfAbsent(pod.podName(), name -> new double[] {created(pod, at), at})[1] = at;
        }
        // Only what this snapshot has is followed further: a week's pods and nodes come and go.
        pendingPods.keySet().retainAll(stillPending);
        idleSince.keySet().retainAll(nodes);
        int newPods = previousPods == null ? 0 : (int) pods.stream().filter(pod -> !previousPods.contains(pod)).count();
        previousPods = pods;
        last = snapshot.observedAt();
        previous = at;
        // Pending work is not shared: equal maps of it may list it in other orders, and its order is the submission's.
        return new Moment(at, true, pending, intern(gangs), intern(used), intern(snapshot.demand().constraints()), intern(workers),
                intern(replicas), newPods);
    }

    /**
     * When a pod first seen now was created: its {@code createdAt} (whole seconds, on the API server's clock, not the
     * collector's), held between the snapshot before, which did not have it, and now.
     */
    private double created(PendingPod pod, double now) {
        return Math.max(previous, Math.min(now, seconds(pod.createdAt())));
    }

    /** The one kept copy of {@code part} (equal parts of moments are shared), until that many are kept. */
    @SuppressWarnings("unchecked")
    private <T> T intern(T part) {
        if (!kept) {
            return part;
        }
        Object shared = canonical.get(part);
        if (shared != null) {
            return (T) shared;
        }
        if (canonical.size() < CANONICAL) {
            canonical.put(part, part);
        }
        return part;
    }

    /** An idle node's idle time grows by the cluster's seconds while observedAt grows by the recording's. */
    private void learnClockRate(RayNode node, Instant observedAt) {
        if (node.idleDurationMs() <= 0) {
            idleSince.remove(node.nodeId());
            return;
        }
        long[] before = idleSince.put(node.nodeId(), new long[] {node.idleDurationMs(), observedAt.toEpochMilli()});
        if (before != null && node.idleDurationMs() > before[0] && observedAt.toEpochMilli() - before[1] >= 200
                && clockRates.size() < SAMPLES) {
            clockRates.add((double) (node.idleDurationMs() - before[0]) / (observedAt.toEpochMilli() - before[1]));
        }
    }

    private double seconds(Instant at) {
        return Duration.between(start, at).toNanos() / 1e9;
    }

    /** The recording's seconds from its first snapshot to its last. */
    double span() {
        return last == null ? 0 : seconds(last);
    }

    /** The cluster's seconds per recorded second: the median of what idle nodes showed; 1 when none was idle twice in a row. */
    double clockRate() {
        return clockRates.isEmpty() ? 1 : Stats.median(clockRates);
    }

    /**
     * A worker pod seen pending and then as a Ray node, in the recording's seconds: created at {@code createdAt}, its node up
     * {@code seconds} later (half-way between the last snapshot that had it pending and the first that had its node).
     */
    record Startup(double createdAt, double seconds) {
    }

    List<Startup> startups() {
        return startups;
    }
}
