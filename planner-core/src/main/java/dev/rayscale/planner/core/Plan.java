package dev.rayscale.planner.core;

import dev.rayscale.events.ClusterSnapshot;
import dev.rayscale.events.GangDemand;
import dev.rayscale.events.InfeasibleDemand;
import dev.rayscale.events.NodeStatus;
import dev.rayscale.events.PendingPod;
import dev.rayscale.events.RayNode;
import dev.rayscale.events.Reason;
import dev.rayscale.events.ReasonCode;
import dev.rayscale.events.ResourceConstraint;
import dev.rayscale.events.Resources;
import dev.rayscale.events.StuckPod;
import dev.rayscale.events.TaskDemand;
import dev.rayscale.events.WorkerGroup;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The working state of one plan: the cluster as the snapshot describes it, in the form packing
 * needs, and what the plan has decided so far.
 */
final class Plan {

    /**
     * The most nodes one plan adds, and the most not-yet-there nodes it models: a decision is bounded whatever its snapshot
     * says (a forged one, or numbers no collector lets through), so that no single cluster can run the shared planner out of
     * memory. Five times Ray's published scalability envelope of 2,000 nodes per cluster; what is left waits for the next
     * decision.
     */
    static final int MAX_NEW_NODES = 10_000;

    final ClusterSnapshot snapshot;
    final EffectivePolicy policy;
    final ResourceIndex index;
    final List<Group> groups = new ArrayList<>();
    final Map<String, Group> groupsByName = new LinkedHashMap<>();
    /** Registered Ray nodes that accept work, head included, in snapshot order: packed first. */
    final List<Node> running = new ArrayList<>();
    /** Pods not yet registered, then replicas asked for without pods, then nodes this plan adds. */
    final List<Node> waiting = new ArrayList<>();
    /** Every node this plan added, in order, also those given up or rolled back since ({@link Node#removed}). */
    final List<Node> added = new ArrayList<>();

    final List<InfeasibleDemand> infeasible = new ArrayList<>();
    final List<StuckPod> stuckPods = new ArrayList<>();
    final List<Reason> reasons = new ArrayList<>();
    private final Map<Group, BigDecimal> costs = new HashMap<>();
    private boolean bounded;

    private Plan(ClusterSnapshot snapshot, EffectivePolicy policy) {
        this.snapshot = snapshot;
        this.policy = policy;
        this.index = new ResourceIndex(resourceNames(snapshot));
        for (WorkerGroup spec : snapshot.workerGroups()) {
            long idleSeconds = spec.idleTimeoutSeconds() != null ? spec.idleTimeoutSeconds() : policy.idleTimeoutSeconds();
            Group group = new Group(spec, index.vector(spec.resources()), Math.multiplyExact(idleSeconds, 1000L));
            groups.add(group);
            groupsByName.putIfAbsent(spec.name(), group);
        }
    }

    /** The plan's view of a snapshot; only the cluster shape if the snapshot has no Ray state. */
    static Plan of(ClusterSnapshot snapshot, EffectivePolicy policy) {
        Plan plan = new Plan(snapshot, policy);
        if (snapshot.hasRayState()) {
            plan.addNodes();
        }
        return plan;
    }

    private void addNodes() {
        Set<String> leaving = new HashSet<>();
        Set<String> podsSeen = new HashSet<>();
        Set<String> inFlux = new HashSet<>();
        snapshot.workerGroups().forEach(group -> leaving.addAll(group.workersToDelete()));
        for (Group group : groups) {
            for (String pod : group.spec.terminatingPods()) {
                if (leaving.contains(pod)) {
                    group.deletionInProgress = true;
                } else {
                    group.terminatingUnnamed++;
                }
            }
        }
        String head = snapshot.headGroup().name();
        for (RayNode node : snapshot.nodes()) {
            if (node.status() == NodeStatus.DEAD) {
                continue;
            }
            Group group = node.group().equals(head) ? null : groupsByName.get(node.group());
            if (group != null && node.podName() != null && leaving.contains(node.podName())) {
                group.deletionInProgress = true;
                continue;
            }
            if (!node.podPresent()) {
                // Its pod is gone or going: the GCS keeps such a node alive up to a minute (fact A4.19), but it is no capacity.
                continue;
            }
            if (node.podName() != null && !podsSeen.add(node.podName())) {
                // A second live node in one pod: its raylet restarted (a new node id, fact A4.20) and the GCS has not yet found
                // the old one dead (A4.19). One pod, one node's capacity; and a pod in that state is not removed.
                inFlux.add(node.podName());
                continue;
            }
            if (group != null) {
                group.liveNodes++;
                group.registeredNodes++;
            }
            if (node.status() != NodeStatus.DRAINING) {
                running.add(new Node(Node.Origin.RUNNING, group, index.vector(node.total()), index.vector(node.available()),
                        node.labels(), node.podName(), node.nodeId(), replicaOf(node.replicaName(), node.podName()),
                        node.status() == NodeStatus.IDLE, node.idleDurationMs()));
            }
        }
        running.forEach(node -> node.inFlux = node.podName != null && inFlux.contains(node.podName));
        for (PendingPod pod : snapshot.pendingPods()) {
            Group group = groupsByName.get(pod.group());
            if (group == null) {
                continue;
            }
            if (leaving.contains(pod.podName())) {
                group.deletionInProgress = true;
                continue;
            }
            group.liveNodes++;
            waiting.add(new Node(Node.Origin.PENDING_POD, group, group.nodeResources.clone(), group.nodeResources.clone(),
                    group.labels, pod.podName(), null, replicaOf(pod.replicaName(), pod.podName()), false, 0));
        }
        int modelled = 0;
        for (Group group : groups) {
            int launching = Math.min(group.launchingNodes(), MAX_NEW_NODES - modelled);
            for (int i = 0; i < launching; i++) {
                waiting.add(Node.empty(Node.Origin.LAUNCHING, group));
            }
            modelled += launching;
        }
    }

    /** Pods of one multi-host replica share a replica name; a single-host pod is its own replica. */
    private static String replicaOf(String replicaName, String podName) {
        return replicaName != null ? replicaName : podName;
    }

    /** Adds one replica of {@code group} ({@code numOfHosts} empty nodes) and returns its nodes. */
    List<Node> open(Group group, Group.Need need) {
        List<Node> hosts = new ArrayList<>(group.hosts);
        for (int i = 0; i < group.hosts; i++) {
            Node node = Node.empty(Node.Origin.NEW, group);
            node.openedFor = need;
            waiting.add(node);
            added.add(node);
            hosts.add(node);
        }
        group.add(need, 1);
        return hosts;
    }

    /** What one node of {@code group} costs ({@link NodeCost}). */
    BigDecimal cost(Group group) {
        return costs.computeIfAbsent(group, g -> NodeCost.of(g.spec));
    }

    /** Worker nodes the plan ends with, against the cluster-wide cap. */
    int plannedWorkers() {
        int sum = 0;
        for (Group group : groups) {
            sum += group.plannedNodes();
        }
        return sum;
    }

    /** Worker nodes the plan may still add under the cluster-wide cap. */
    int workerRoom() {
        return policy.maxWorkers() == null ? Integer.MAX_VALUE : Math.max(0, policy.maxWorkers() - plannedWorkers());
    }

    /** Replicas of {@code group} the plan may still add, within its max, the cluster-wide cap and {@link #MAX_NEW_NODES}. */
    int room(Group group) {
        int room = Math.min(group.room(), workerRoom() / group.hosts);
        int openable = (MAX_NEW_NODES - added.size()) / group.hosts;
        if (room > 0 && openable < 1 && !bounded) {
            bounded = true;
            because(ReasonCode.UPSCALING_LIMITED, group, "one decision adds at most " + MAX_NEW_NODES + " nodes, and this one has added "
                    + added.size() + ": the demand left waits for the next decision");
        }
        return Math.min(room, openable);
    }

    private static TreeSet<String> resourceNames(ClusterSnapshot snapshot) {
        TreeSet<String> names = new TreeSet<>(snapshot.headGroup().resources().names());
        snapshot.workerGroups().forEach(group -> names.addAll(group.resources().names()));
        if (snapshot.hasRayState()) {
            for (RayNode node : snapshot.nodes()) {
                names.addAll(node.total().names());
                names.addAll(node.available().names());
            }
            for (TaskDemand task : snapshot.demand().tasks()) {
                names.addAll(task.shape().names());
            }
            for (GangDemand gang : snapshot.demand().gangs()) {
                gang.bundles().stream().map(Resources::names).forEach(names::addAll);
            }
            for (ResourceConstraint constraint : snapshot.demand().constraints()) {
                constraint.bundles().forEach(bundle -> names.addAll(bundle.shape().names()));
            }
        }
        return names;
    }

    /** A reason about the whole cluster. */
    void because(ReasonCode code, String detail) {
        reasons.add(Reason.ofCluster(code, detail));
    }

    /** A reason about one group. */
    void because(ReasonCode code, Group group, String detail) {
        reasons.add(new Reason(code, group.name, detail));
    }
}
