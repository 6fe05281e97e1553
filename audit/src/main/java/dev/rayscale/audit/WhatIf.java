package dev.rayscale.audit;

import dev.rayscale.events.ClusterSnapshot;
import dev.rayscale.events.GroupTarget;
import dev.rayscale.events.ScaleDecision;
import dev.rayscale.events.WorkerGroup;
import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Compares the recorded decisions with those a changed policy gives on the same recorded snapshots:
 * which decisions differ, each group's peak and integrated target replicas (replica-seconds, the target
 * held from one snapshot to the next), and the time from demand appearing to the first decision that
 * grows the cluster for it. Open loop: the observations are the recorded ones, not a cluster that would
 * have answered the other decisions.
 */
public final class WhatIf implements Replayer.Listener {

    private static final int DIFFERENCES_SHOWN = 20;

    /** Per side (recorded, what-if): one group's figures. */
    private static final class GroupFigures {
        final int[] peak = new int[2];
        final double[] replicaSeconds = new double[2];
        final int[] last = new int[2];
    }

    /** One side's reaction times to demand. */
    private static final class Reactions {
        long count;
        double totalSeconds;
        double maxSeconds;

        void add(double seconds) {
            count++;
            totalSeconds += seconds;
            maxSeconds = Math.max(maxSeconds, seconds);
        }

        String describe() {
            return count == 0 ? "-" : String.format(Locale.ROOT, "mean %.1f s, max %.1f s over %d", totalSeconds / count, maxSeconds, count);
        }
    }

    private static final class ClusterFigures {
        final Map<String, GroupFigures> groups = new LinkedHashMap<>();
        Instant lastAt;
        Instant demandSince;
        final boolean[] grown = new boolean[2];
    }

    private final Map<String, ClusterFigures> clusters = new TreeMap<>();
    private final Reactions[] reactions = {new Reactions(), new Reactions()};
    private final List<String> differences = new ArrayList<>();
    private long compared;
    private long differing;

    @Override
    public void compared(Replayer.Comparison comparison) {
        if (comparison.snapshot() == null) {
            return;
        }
        sample(comparison.snapshot(), comparison.recorded(), comparison.replayed());
    }

    @Override
    public void unanswered(ClusterSnapshot snapshot, ScaleDecision replayed) {
        sample(snapshot, null, replayed);
    }

    private void sample(ClusterSnapshot snapshot, ScaleDecision recorded, ScaleDecision whatIf) {
        compared++;
        String recordedAction = recorded == null ? "no change" : Digest.targets(recorded);
        String whatIfAction = whatIf.worthPublishing() ? Digest.targets(whatIf) : "no change";
        if (!recordedAction.equals(whatIfAction)) {
            differing++;
            if (differences.size() < DIFFERENCES_SHOWN) {
                differences.add(String.format(Locale.ROOT, "  %s %s snapshot %d: recorded %s | what-if %s", snapshot.cluster().id(),
                        snapshot.observedAt(), snapshot.sequence(), recordedAction, whatIfAction));
            }
        }
        ClusterFigures cluster = clusters.computeIfAbsent(snapshot.cluster().id(), id -> new ClusterFigures());
        double held = cluster.lastAt == null ? 0 : Math.max(0, Duration.between(cluster.lastAt, snapshot.observedAt()).toMillis() / 1000.0);
        cluster.groups.values().forEach(group -> {
            group.replicaSeconds[0] += held * group.last[0];
            group.replicaSeconds[1] += held * group.last[1];
        });
        cluster.lastAt = snapshot.observedAt();
        Map<String, Integer> recordedTargets = targets(recorded);
        Map<String, Integer> whatIfTargets = targets(whatIf);
        for (WorkerGroup spec : snapshot.workerGroups()) {
            GroupFigures group = cluster.groups.computeIfAbsent(spec.name(), name -> new GroupFigures());
            group.last[0] = recordedTargets.getOrDefault(spec.name(), spec.replicas());
            group.last[1] = whatIfTargets.getOrDefault(spec.name(), spec.replicas());
            for (int side = 0; side < 2; side++) {
                group.peak[side] = Math.max(group.peak[side], group.last[side]);
            }
        }
        react(cluster, snapshot, new ScaleDecision[] {recorded, whatIf});
    }

    /** Demand starts an episode; the first decision of each side that grows the cluster in it ends that side's wait. */
    private void react(ClusterFigures cluster, ClusterSnapshot snapshot, ScaleDecision[] sides) {
        boolean demand = snapshot.hasRayState() && (!snapshot.demand().tasks().isEmpty() || !snapshot.demand().gangs().isEmpty()
                || !snapshot.demand().constraints().isEmpty());
        if (!demand) {
            cluster.demandSince = null;
            return;
        }
        if (cluster.demandSince == null) {
            cluster.demandSince = snapshot.observedAt();
            cluster.grown[0] = false;
            cluster.grown[1] = false;
        }
        for (int side = 0; side < 2; side++) {
            if (!cluster.grown[side] && sides[side] != null && grows(sides[side])) {
                cluster.grown[side] = true;
                reactions[side].add(Duration.between(cluster.demandSince, sides[side].decidedAt()).toMillis() / 1000.0);
            }
        }
    }

    private static boolean grows(ScaleDecision decision) {
        return decision.groups().stream().anyMatch(group -> group.targetReplicas() > group.currentReplicas());
    }

    private static Map<String, Integer> targets(ScaleDecision decision) {
        Map<String, Integer> targets = new HashMap<>();
        if (decision != null) {
            for (GroupTarget group : decision.groups()) {
                targets.put(group.name(), group.targetReplicas());
            }
        }
        return targets;
    }

    public void print(PrintWriter out, PolicyOverrides overrides) {
        out.println("what-if " + overrides.describe() + " (open loop: the recorded observations re-planned, not a re-simulated cluster;");
        out.println("  a cluster that got other decisions would have been observed otherwise from the first difference on)");
        out.println();
        out.printf(Locale.ROOT, "decisions that differ: %d of %d snapshots%n", differing, compared);
        differences.forEach(out::println);
        if (differing > differences.size()) {
            out.println("  ... and " + (differing - differences.size()) + " more");
        }
        out.println();
        out.printf(Locale.ROOT, "%-40s %-20s %10s %10s %18s %18s%n", "cluster", "group", "peak rec", "peak w-if", "replica-s rec",
                "replica-s w-if");
        for (Map.Entry<String, ClusterFigures> cluster : clusters.entrySet()) {
            for (Map.Entry<String, GroupFigures> group : cluster.getValue().groups.entrySet()) {
                GroupFigures figures = group.getValue();
                out.printf(Locale.ROOT, "%-40s %-20s %10d %10d %18.0f %18.0f%n", cluster.getKey(), group.getKey(), figures.peak[0],
                        figures.peak[1], figures.replicaSeconds[0], figures.replicaSeconds[1]);
            }
        }
        out.println();
        out.println("demand to the first decision that grows the cluster for it: recorded " + reactions[0].describe() + "; what-if "
                + reactions[1].describe());
        out.printf(Locale.ROOT, "what-if: snapshots=%d differing=%d%n", compared, differing);
        out.flush();
    }
}
