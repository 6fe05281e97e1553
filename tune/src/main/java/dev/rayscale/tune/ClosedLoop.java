package dev.rayscale.tune;

import dev.rayscale.audit.PolicyOverrides;
import dev.rayscale.events.ClusterSnapshot;
import dev.rayscale.events.GroupTarget;
import dev.rayscale.events.PodDeletion;
import dev.rayscale.events.ScaleDecision;
import dev.rayscale.planner.core.Planner;
import dev.rayscale.planner.core.PlannerSettings;
import dev.rayscale.sim.ClusterSimulator;
import dev.rayscale.sim.ManualClock;
import dev.rayscale.sim.Workload;
import com.google.protobuf.ByteString;
import dev.rayscale.gcs.proto.DrainNodeReason;
import dev.rayscale.gcs.proto.DrainNodeRequest;
import dev.rayscale.kuberay.RayLabels;
import io.ray.v1.RayCluster;
import io.ray.v1.rayclusterspec.WorkerGroupSpecs;
import io.ray.v1.rayclusterspec.workergroupspecs.ScaleStrategy;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HexFormat;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;

/**
 * A reconstructed workload run on the simulated cluster with the planner in process, in simulated time: the cluster is
 * observed when the recording observed it, each snapshot planned under the policy tried, and each decision applied as the
 * actuator would (each node to remove drained first, a refused one kept), as long after its snapshot as the recorded
 * pipeline took.
 */
final class ClosedLoop {

    /**
     * The simulated cluster's step: its raylets report and its GCS pulls once a second (fact A3.16), so a finer step changes
     * nothing a snapshot can see (the demo's recordings calibrate the same at 0.5 s, a third slower).
     */
    private static final double STEP_SECONDS = 1.0;
    /** How long the head and the recording's first workers may take to come up before the workload starts. */
    private static final double WARM_UP_SECONDS = 1800;

    private ClosedLoop() {
    }

    /**
     * @param times when the recording observed its cluster, in the cluster's seconds from its first snapshot
     * @return the replay's figures, counted as it goes
     */
    static Figures run(Reconstruction reconstruction, double[] times, double lag, RecordedPolicy recorded, PolicyOverrides policy,
            PlannerSettings settings, Map<String, Double> nodeCosts) {
        MomentReader reader = new MomentReader(false);
        Figures.Tally tally = new Figures.Tally(1, nodeCosts);
        drive(reconstruction.workload(), times, lag, snapshot -> policy.apply(recorded.apply(snapshot)), policy.apply(settings),
                snapshot -> tally.add(reader.read(snapshot)));
        return tally.figures(reconstruction.tasks());
    }

    /**
     * Runs {@code workload} observed at {@code times}, each snapshot told to {@code observed} and planned as {@code planned}
     * makes it, each decision applied {@code lag} seconds after its snapshot.
     */
    static void drive(Workload workload, double[] times, double lag, UnaryOperator<ClusterSnapshot> planned, PlannerSettings settings,
            Consumer<ClusterSnapshot> observed) {
        ManualClock clock = new ManualClock();
        Planner planner = new Planner(settings);
        try (ClusterSimulator cluster = ClusterSimulator.replay(workload, "tune", clock)) {
            warmUp(cluster, clock);
            cluster.begin();
            // The workload's time runs LEAD ahead of the recording's, so that work pending at the first snapshot is submitted
            // before it, and the GCS has pulled it by then (fact A3.16).
            double began = clock.seconds() + Reconstructor.LEAD_SECONDS;
            SimulatedCollector collector = new SimulatedCollector(cluster, workload.cluster().versions().ray());
            Deque<Due> decisions = new ArrayDeque<>();
            for (double at : times) {
                while (!decisions.isEmpty() && decisions.peekFirst().at() <= at) {
                    Due next = decisions.pollFirst();
                    advanceTo(cluster, clock, began + next.at());
                    apply(cluster, next.decision());
                }
                advanceTo(cluster, clock, began + at);
                ClusterSnapshot snapshot = collector.observe(Instant.EPOCH.plusNanos((long) (at * 1e9)));
                observed.accept(snapshot);
                ScaleDecision decision = planner.plan(planned.apply(snapshot));
                if (decision.changesAnything()) {
                    decisions.addLast(new Due(at + lag, decision));
                }
            }
        }
    }

    /** As the actuator asks Ray before naming a pod: a node that took work since it was seen idle refuses, and stays. */
    private static boolean drained(ClusterSimulator cluster, PodDeletion deletion) {
        if (deletion.nodeId() == null) {
            return true;
        }
        return cluster.drainGcs(DrainNodeRequest.newBuilder().setNodeId(ByteString.copyFrom(HexFormat.of().parseHex(deletion.nodeId())))
                .setReason(DrainNodeReason.DRAIN_NODE_REASON_IDLE_TERMINATION).setReasonMessage("rayscale tune").build()).getIsAccepted();
    }

    /** A decision and when the actuator applies it. */
    private record Due(double at, ScaleDecision decision) {
    }

    private static void advanceTo(ClusterSimulator cluster, ManualClock clock, double at) {
        if (at > clock.seconds()) {
            cluster.advance(clock, at - clock.seconds(), STEP_SECONDS);
        }
    }

    /** Until the head's GCS answers and the groups' first replicas are Ray nodes, as they were when the recording began. */
    private static void warmUp(ClusterSimulator cluster, ManualClock clock) {
        int wanted = cluster.workerPods();
        double end = clock.seconds() + WARM_UP_SECONDS;
        while (clock.seconds() < end && !(cluster.gcsUp() && cluster.rayStats().registeredWorkers() >= wanted)) {
            cluster.advance(clock, STEP_SECONDS, STEP_SECONDS);
            wanted = Math.max(wanted, cluster.workerPods());
        }
    }

    /**
     * As the actuator's core applies a decision: a group whose replicas changed since the decision's snapshot is stale and
     * left alone (its compare-and-set); idle nodes are drained first and a refused one kept; the pods named for deletion
     * replace the list before, unless a pod the list names is still there (a deletion still in progress: then no more are
     * named, and their replicas kept).
     */
    private static void apply(ClusterSimulator cluster, ScaleDecision decision) {
        Set<String> pods = new HashSet<>();
        cluster.client().pods().inNamespace(cluster.namespace()).withLabel(RayLabels.CLUSTER, cluster.name()).list().getItems()
                .forEach(pod -> pods.add(pod.getMetadata().getName()));
        cluster.client().resources(RayCluster.class).inNamespace(cluster.namespace()).withName(cluster.name()).edit(rayCluster -> {
            List<WorkerGroupSpecs> groups = rayCluster.getSpec().getWorkerGroupSpecs();
            for (GroupTarget target : decision.groups()) {
                if (!target.changesAnything() || target.index() >= groups.size()
                        || !groups.get(target.index()).getGroupName().equals(target.name())) {
                    continue;
                }
                WorkerGroupSpecs group = groups.get(target.index());
                if (group.getReplicas() == null || group.getReplicas() != target.currentReplicas()) {
                    continue;
                }
                List<String> named = group.getScaleStrategy() == null || group.getScaleStrategy().getWorkersToDelete() == null ? List.of()
                        : group.getScaleStrategy().getWorkersToDelete();
                boolean inProgress = named.stream().anyMatch(pods::contains);
                List<String> drained = inProgress ? List.of()
                        : target.toDelete().stream().filter(deletion -> drained(cluster, deletion)).map(PodDeletion::podName).toList();
                group.setReplicas(target.targetReplicas() + target.toDelete().size() - drained.size());
                if (!inProgress && !drained.isEmpty()) {
                    ScaleStrategy strategy = group.getScaleStrategy() == null ? new ScaleStrategy() : group.getScaleStrategy();
                    strategy.setWorkersToDelete(new ArrayList<>(drained));
                    group.setScaleStrategy(strategy);
                }
            }
            return rayCluster;
        });
    }
}
