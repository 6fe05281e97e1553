package dev.rayscale.collector.assembly;

import dev.rayscale.events.ClusterRef;
import dev.rayscale.events.ClusterSnapshot;
import dev.rayscale.events.ClusterVersions;
import dev.rayscale.events.Demand;
import dev.rayscale.events.GcsSource;
import dev.rayscale.events.HeadGroup;
import dev.rayscale.events.KubernetesSource;
import dev.rayscale.events.NodeStatus;
import dev.rayscale.events.PendingPod;
import dev.rayscale.events.PodState;
import dev.rayscale.events.RayNode;
import dev.rayscale.events.SourceHealth;
import dev.rayscale.events.WorkerGroup;
import io.ray.v1.RayCluster;
import io.ray.v1.rayclusterspec.HeadGroupSpec;
import io.ray.v1.rayclusterspec.WorkerGroupSpecs;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Joins a RayCluster, its pods and one GCS read into a self-contained snapshot. Pure: the same inputs
 * always give the same snapshot.
 */
public final class SnapshotAssembler {

    /** The Ray node type name KubeRay gives the head. */
    public static final String HEAD_GROUP = "headgroup";
    private static final int DEFAULT_MAX_REPLICAS = Integer.MAX_VALUE;

    private SnapshotAssembler() {
    }

    /** @param versions what the cluster runs and what Rayscale does there ({@link SupportMatrix}) */
    public static ClusterSnapshot assemble(RayCluster cluster, List<RayPod> pods, GcsRead gcs, KubernetesSource kubernetes,
            Instant observedAt, long sequence, ClusterVersions versions) {
        ClusterRef ref = new ClusterRef(cluster.getMetadata().getNamespace(), cluster.getMetadata().getName(), cluster.getMetadata().getUid());
        List<RayPod> workers = pods.stream().filter(pod -> pod.worker() && !pod.terminating()).toList();
        GcsSource source;
        List<RayNode> nodes = null;
        List<PendingPod> pending = null;
        Demand demand = null;
        if (gcs instanceof GcsRead.Answered answered) {
            RayState state = answered.state();
            source = GcsSource.ok(state.stateVersion(), state.sessionName());
            nodes = withPodStates(state.nodes(), pods);
            demand = state.demand();
            pending = pendingPods(workers, nodes);
        } else {
            GcsRead.Failed failed = (GcsRead.Failed) gcs;
            source = GcsSource.unavailable(failed.code(), failed.detail());
        }
        return new ClusterSnapshot(ClusterSnapshot.SCHEMA_VERSION, ref.id() + "@" + sequence, ref, sequence, observedAt,
                new SourceHealth(source, kubernetes), ClusterPolicy.of(cluster), headGroup(cluster.getSpec().getHeadGroupSpec()),
                workerGroups(cluster, pods), nodes, pending, demand, versions);
    }

    /** Each node with what Kubernetes says of its pod: a node may outlive a pod that vanished abruptly (fact A4.19). */
    private static List<RayNode> withPodStates(List<RayNode> nodes, List<RayPod> pods) {
        Map<String, RayPod> byName = new HashMap<>();
        pods.forEach(pod -> byName.put(pod.name(), pod));
        List<RayNode> stated = new ArrayList<>(nodes.size());
        for (RayNode node : nodes) {
            if (node.podName() == null) {
                stated.add(node);
                continue;
            }
            RayPod pod = byName.get(node.podName());
            PodState podState = pod == null ? PodState.GONE : pod.terminating() ? PodState.TERMINATING : PodState.PRESENT;
            stated.add(new RayNode(node.nodeId(), node.podName(), node.replicaName(), node.group(), node.status(), node.total(),
                    node.available(), node.idleDurationMs(), node.labels(), node.ipAddress(), node.activity(), podState));
        }
        return stated;
    }

    /** The multi-host replica name of each pod that has one, by pod name, for joining GCS nodes to replicas. */
    public static Map<String, String> replicas(List<RayPod> pods) {
        Map<String, String> replicas = new HashMap<>();
        for (RayPod pod : pods) {
            if (pod.replica() != null) {
                replicas.put(pod.name(), pod.replica());
            }
        }
        return replicas;
    }

    private static HeadGroup headGroup(HeadGroupSpec head) {
        if (head == null) {
            return new HeadGroup(HEAD_GROUP, null, null);
        }
        NodeShape shape = NodeShape.of(HEAD_GROUP, head.getRayStartParams(), head.getTemplate(), head.getResources(), head.getLabels());
        return new HeadGroup(HEAD_GROUP, shape.resources(), shape.labels());
    }

    private static List<WorkerGroup> workerGroups(RayCluster cluster, List<RayPod> pods) {
        List<WorkerGroupSpecs> specs = cluster.getSpec().getWorkerGroupSpecs();
        List<WorkerGroup> groups = new ArrayList<>();
        if (specs == null) {
            return groups;
        }
        Map<String, String> launchFailures = LaunchFailures.byGroup(cluster, pods);
        for (int index = 0; index < specs.size(); index++) {
            WorkerGroupSpecs spec = specs.get(index);
            NodeShape shape = NodeShape.of(spec.getGroupName(), spec.getRayStartParams(), spec.getTemplate(), spec.getResources(), spec.getLabels());
            List<String> workersToDelete = spec.getScaleStrategy() == null || spec.getScaleStrategy().getWorkersToDelete() == null
                    ? List.of() : spec.getScaleStrategy().getWorkersToDelete();
            int hosts = TenantBounds.hosts(spec.getGroupName(), spec.getNumOfHosts());
            groups.add(new WorkerGroup(spec.getGroupName(), index, TenantBounds.replicas(spec.getGroupName(), "replicas", spec.getReplicas(), hosts),
                    TenantBounds.replicas(spec.getGroupName(), "minReplicas", spec.getMinReplicas(), hosts),
                    spec.getMaxReplicas() == null ? DEFAULT_MAX_REPLICAS : spec.getMaxReplicas(), hosts,
                    shape.resources(), shape.labels(), workersToDelete,
                    spec.getIdleTimeoutSeconds() == null ? null : spec.getIdleTimeoutSeconds().longValue(),
                    Boolean.TRUE.equals(spec.getSuspend()), terminatingPods(pods, spec.getGroupName()),
                    launchFailures.get(spec.getGroupName()), ClusterPolicy.nodeCost(spec.getTemplate())));
        }
        return groups;
    }

    private static List<String> terminatingPods(List<RayPod> pods, String group) {
        return pods.stream().filter(pod -> pod.terminating() && group.equals(pod.group()) && pod.worker())
                .map(RayPod::name).sorted().toList();
    }

    /** Worker pods no live Ray node claims: capacity on its way. */
    private static List<PendingPod> pendingPods(List<RayPod> workers, List<RayNode> nodes) {
        Set<String> registered = new HashSet<>();
        for (RayNode node : nodes) {
            if (node.status() != NodeStatus.DEAD && node.podName() != null) {
                registered.add(node.podName());
            }
        }
        List<PendingPod> pending = new ArrayList<>();
        for (RayPod pod : workers) {
            if (registered.contains(pod.name())) {
                continue;
            }
            String phase = pod.phase() == null ? "Pending" : pod.phase();
            if ("Succeeded".equals(phase) || "Failed".equals(phase)) {
                continue;
            }
            pending.add(new PendingPod(pod.name(), pod.replica(), pod.group(), phase, pod.waitingReason(), pod.created()));
        }
        return pending;
    }
}
