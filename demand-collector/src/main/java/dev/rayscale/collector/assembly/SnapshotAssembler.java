package dev.rayscale.collector.assembly;

import dev.rayscale.events.ClusterRef;
import dev.rayscale.events.ClusterSnapshot;
import dev.rayscale.events.GcsSource;
import dev.rayscale.events.HeadGroup;
import dev.rayscale.events.KubernetesSource;
import dev.rayscale.events.NodeStatus;
import dev.rayscale.events.PendingPod;
import dev.rayscale.events.PodState;
import dev.rayscale.events.RayNode;
import dev.rayscale.events.SourceHealth;
import dev.rayscale.events.WorkerGroup;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.ray.v1.RayCluster;
import io.ray.v1.rayclusterspec.HeadGroupSpec;
import io.ray.v1.rayclusterspec.WorkerGroupSpecs;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Joins a RayCluster, its pods and one GCS read into a self-contained snapshot. Pure: the same inputs
 * always give the same snapshot.
 */
public final class SnapshotAssembler {

    /** The Ray node type name KubeRay gives the head. */
    public static final String HEAD_GROUP = "headgroup";
    public static final String CLUSTER_LABEL = "ray.io/cluster";
    public static final String GROUP_LABEL = "ray.io/group";
    public static final String NODE_TYPE_LABEL = "ray.io/node-type";
    private static final int DEFAULT_MAX_REPLICAS = Integer.MAX_VALUE;

    private final String replicaLabel;

    /** @param replicaLabel the pod label naming a multi-host replica */
    public SnapshotAssembler(String replicaLabel) {
        this.replicaLabel = replicaLabel;
    }

    public ClusterSnapshot assemble(RayCluster cluster, List<Pod> pods, GcsRead gcs, KubernetesSource kubernetes,
            Instant observedAt, long sequence) {
        ClusterRef ref = new ClusterRef(cluster.getMetadata().getNamespace(), cluster.getMetadata().getName(), cluster.getMetadata().getUid());
        List<Pod> workers = pods.stream().filter(pod -> "worker".equals(label(pod, NODE_TYPE_LABEL)) && !terminating(pod)).toList();
        GcsSource source;
        List<RayNode> nodes = null;
        List<PendingPod> pending = null;
        dev.rayscale.events.Demand demand = null;
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
                workerGroups(cluster, pods), nodes, pending, demand);
    }

    static boolean terminating(Pod pod) {
        return pod.getMetadata().getDeletionTimestamp() != null;
    }

    /** Each node with what Kubernetes says of its pod: a node may outlive a pod that vanished abruptly (fact A4.19). */
    private static List<RayNode> withPodStates(List<RayNode> nodes, List<Pod> pods) {
        Map<String, Pod> byName = new HashMap<>();
        pods.forEach(pod -> byName.put(pod.getMetadata().getName(), pod));
        List<RayNode> stated = new ArrayList<>(nodes.size());
        for (RayNode node : nodes) {
            if (node.podName() == null) {
                stated.add(node);
                continue;
            }
            Pod pod = byName.get(node.podName());
            PodState podState = pod == null ? PodState.GONE : terminating(pod) ? PodState.TERMINATING : PodState.PRESENT;
            stated.add(new RayNode(node.nodeId(), node.podName(), node.replicaName(), node.group(), node.status(), node.total(),
                    node.available(), node.idleDurationMs(), node.labels(), node.ipAddress(), node.activity(), podState));
        }
        return stated;
    }

    /** The multi-host replica name of each pod that has one, by pod name, for joining GCS nodes to replicas. */
    public Map<String, String> replicas(List<Pod> pods) {
        Map<String, String> replicas = new HashMap<>();
        for (Pod pod : pods) {
            String replica = label(pod, replicaLabel);
            if (replica != null) {
                replicas.put(pod.getMetadata().getName(), replica);
            }
        }
        return replicas;
    }

    private static HeadGroup headGroup(HeadGroupSpec head) {
        if (head == null) {
            return new HeadGroup(HEAD_GROUP, null, null);
        }
        NodeShape shape = NodeShape.of(head.getRayStartParams(), head.getTemplate(), head.getResources(), head.getLabels());
        return new HeadGroup(HEAD_GROUP, shape.resources(), shape.labels());
    }

    private static List<WorkerGroup> workerGroups(RayCluster cluster, List<Pod> pods) {
        List<WorkerGroupSpecs> specs = cluster.getSpec().getWorkerGroupSpecs();
        List<WorkerGroup> groups = new ArrayList<>();
        if (specs == null) {
            return groups;
        }
        Map<String, String> launchFailures = LaunchFailures.byGroup(cluster, pods);
        for (int index = 0; index < specs.size(); index++) {
            WorkerGroupSpecs spec = specs.get(index);
            NodeShape shape = NodeShape.of(spec.getRayStartParams(), spec.getTemplate(), spec.getResources(), spec.getLabels());
            List<String> workersToDelete = spec.getScaleStrategy() == null || spec.getScaleStrategy().getWorkersToDelete() == null
                    ? List.of() : spec.getScaleStrategy().getWorkersToDelete();
            groups.add(new WorkerGroup(spec.getGroupName(), index, orZero(spec.getReplicas()), orZero(spec.getMinReplicas()),
                    spec.getMaxReplicas() == null ? DEFAULT_MAX_REPLICAS : spec.getMaxReplicas(),
                    spec.getNumOfHosts() == null || spec.getNumOfHosts() < 1 ? 1 : spec.getNumOfHosts(),
                    shape.resources(), shape.labels(), workersToDelete,
                    spec.getIdleTimeoutSeconds() == null ? null : spec.getIdleTimeoutSeconds().longValue(),
                    Boolean.TRUE.equals(spec.getSuspend()), terminatingPods(pods, spec.getGroupName()),
                    launchFailures.get(spec.getGroupName()), ClusterPolicy.nodeCost(spec.getTemplate())));
        }
        return groups;
    }

    private static List<String> terminatingPods(List<Pod> pods, String group) {
        return pods.stream().filter(pod -> terminating(pod) && group.equals(label(pod, GROUP_LABEL)) && "worker".equals(label(pod, NODE_TYPE_LABEL)))
                .map(pod -> pod.getMetadata().getName()).sorted().toList();
    }

    /** Worker pods no live Ray node claims: capacity on its way. */
    private List<PendingPod> pendingPods(List<Pod> workers, List<RayNode> nodes) {
        Set<String> registered = new HashSet<>();
        for (RayNode node : nodes) {
            if (node.status() != NodeStatus.DEAD && node.podName() != null) {
                registered.add(node.podName());
            }
        }
        List<PendingPod> pending = new ArrayList<>();
        for (Pod pod : workers) {
            if (registered.contains(pod.getMetadata().getName())) {
                continue;
            }
            String phase = pod.getStatus() == null || pod.getStatus().getPhase() == null ? "Pending" : pod.getStatus().getPhase();
            if ("Succeeded".equals(phase) || "Failed".equals(phase)) {
                continue;
            }
            pending.add(new PendingPod(pod.getMetadata().getName(), label(pod, replicaLabel), label(pod, GROUP_LABEL), phase,
                    waitingReason(pod), Instant.parse(pod.getMetadata().getCreationTimestamp())));
        }
        return pending;
    }

    /** Why a pod is not running yet: its PodScheduled condition's reason (Unschedulable), else a container's waiting reason. */
    static String waitingReason(Pod pod) {
        if (pod.getStatus() == null) {
            return null;
        }
        for (PodCondition condition : Objects.requireNonNullElse(pod.getStatus().getConditions(), List.<PodCondition>of())) {
            if ("PodScheduled".equals(condition.getType()) && "False".equals(condition.getStatus())) {
                return condition.getReason();
            }
        }
        for (ContainerStatus status : Objects.requireNonNullElse(pod.getStatus().getContainerStatuses(), List.<ContainerStatus>of())) {
            if (status.getState() != null && status.getState().getWaiting() != null) {
                return status.getState().getWaiting().getReason();
            }
        }
        return null;
    }

    static String label(Pod pod, String key) {
        Map<String, String> labels = pod.getMetadata().getLabels();
        return labels == null ? null : labels.get(key);
    }

    private static int orZero(Integer value) {
        return value == null ? 0 : value;
    }
}
