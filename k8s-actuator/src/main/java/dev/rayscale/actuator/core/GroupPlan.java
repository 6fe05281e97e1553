package dev.rayscale.actuator.core;

import dev.rayscale.events.DeletionCause;
import dev.rayscale.events.DrainRejection;
import dev.rayscale.events.GroupActuation;
import dev.rayscale.events.GroupTarget;
import dev.rayscale.events.PodDeletion;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What one worker group's patch will be. A pod is named for deletion only if it still exists and
 * either Ray accepted the drain of the very node the decision named — still the pod's live node
 * (a raylet restarted in the same pod is a new node, fact A4.20, and a drain of a node no longer alive
 * is accepted without asking anyone, fact A3.11) — or it never became a Ray node and is still
 * Pending. A multi-host replica goes whole or not at all. {@code replicas} drops by exactly the
 * replicas named, in the same patch, and never below the pods the operator would otherwise count and
 * delete itself in list order, terminating ones included (facts B6.27, B6.28); a pod replaced because
 * it waited too long keeps its replica. No new names are added while the operator has not finished
 * the previous ones; once it has, the old names are cleared (the operator never clears them, B6.26).
 */
public final class GroupPlan {

    private static final String KEPT_WITH_ITS_REPLICA = "another host of its multi-host replica was kept";
    private static final String DRAINED_NONETHELESS = "; Ray had accepted its drain, so its raylet exits: under restartPolicy Always"
            + " its container restarts as a new idle node, under Never KubeRay deletes the whole replica";

    final int index;
    final String name;
    final ObservedCluster.ObservedGroup spec;
    final GroupTarget target;
    private final Map<String, ObservedCluster.ObservedPod> pods;
    /** How long each live node had been idle by the GCS read made right before the drains (0: running work). */
    private final Map<String, Long> idleMs;
    /** The group's pods as last read: at first as observed, then as read again right before the patch ({@link #podsNow}). */
    private Map<String, ObservedCluster.ObservedPod> podsLastRead;
    private final boolean previousInProgress;
    /** Only finish removing pods already drained: no scale-up, no new drains. */
    private final boolean finishing;
    /** Deletions that need Ray to accept a drain first. */
    private final List<PodDeletion> toDrain = new ArrayList<>();
    private final List<PodDeletion> accepted = new ArrayList<>();
    private final List<DrainRejection> rejected = new ArrayList<>();

    private GroupPlan(int index, ObservedCluster.ObservedGroup spec, GroupTarget target, ObservedCluster cluster, boolean finishing) {
        this.index = index;
        this.name = spec.name();
        this.spec = spec;
        this.target = target;
        this.pods = cluster.pods();
        this.idleMs = cluster.liveNodes() == null ? Map.of() : cluster.liveNodes().idleMs();
        this.podsLastRead = pods;
        this.finishing = finishing;
        this.previousInProgress = spec.workersToDelete().stream().anyMatch(pods::containsKey);
        for (PodDeletion deletion : target.toDelete()) {
            sort(deletion, cluster.liveNodes() == null ? null : cluster.liveNodes().byPod());
        }
    }

    /** The plan for one group of a decision. */
    public static GroupPlan of(int index, ObservedCluster.ObservedGroup spec, GroupTarget target, ObservedCluster cluster) {
        return new GroupPlan(index, spec, target, cluster, false);
    }

    /**
     * The plan that finishes the removal of pods whose drains Ray accepted, against the RayCluster as it
     * is now: their raylets have exited (fact A3.14), so they hold no work, and unless they go their
     * containers come back as new, idle Ray nodes. Nothing else of the decision is applied.
     */
    public static GroupPlan finishing(int index, ObservedCluster.ObservedGroup spec, List<PodDeletion> drained, ObservedCluster cluster) {
        GroupTarget target = new GroupTarget(spec.name(), index, spec.replicasOrZero(), spec.replicasOrZero(), spec.workersToDelete(),
                drained, List.of());
        GroupPlan plan = new GroupPlan(index, spec, target, cluster, true);
        plan.keepWholeReplicasOnly();
        return plan;
    }

    private void sort(PodDeletion deletion, Map<String, List<String>> liveNodes) {
        ObservedCluster.ObservedPod pod = pods.get(deletion.podName());
        if (previousInProgress) {
            reject(deletion, "the operator is still deleting this group's previous workersToDelete");
        } else if (pod == null || pod.terminating()) {
            reject(deletion, "the pod no longer exists");
        } else if (finishing) {
            List<String> others = liveNodes == null ? List.of() : liveNodes.getOrDefault(deletion.podName(), List.of()).stream()
                    .filter(node -> !node.equals(deletion.nodeId())).toList();
            if (others.isEmpty()) {
                accepted.add(deletion);
            } else {
                reject(deletion, "a new raylet (node " + shortId(others.get(0)) + ") registered in the pod; not deleted");
            }
        } else if (deletion.nodeId() != null) {
            List<String> live = liveNodes == null ? null : liveNodes.getOrDefault(deletion.podName(), List.of());
            if (live == null) {
                reject(deletion, "the GCS could not be read to check the pod's Ray node; not deleted");
            } else if (live.isEmpty()) {
                reject(deletion, "its Ray node " + shortId(deletion.nodeId()) + " is no longer alive and the pod has no other");
            } else if (!live.equals(List.of(deletion.nodeId()))) {
                reject(deletion, "its raylet restarted since the snapshot (node " + String.join(", ", live.stream().map(GroupPlan::shortId)
                        .toList()) + " now, " + shortId(deletion.nodeId()) + " then) and may be running work");
            } else {
                toDrain.add(deletion);
            }
        } else if (!"Pending".equals(pod.phase()) || liveNodes != null && liveNodes.containsKey(pod.name())) {
            reject(deletion, "the pod left Pending since the snapshot (now " + pod.phase() + ") and may be running work");
        } else {
            accepted.add(deletion);
        }
    }

    private void reject(PodDeletion deletion, String reason) {
        rejected.add(new DrainRejection(deletion.podName(), reason));
    }

    private static String shortId(String nodeId) {
        return nodeId.length() > 12 ? nodeId.substring(0, 12) : nodeId;
    }

    /** The deletions that need an accepted drain before they can be named. */
    public List<PodDeletion> toDrain() {
        return List.copyOf(toDrain);
    }

    /**
     * {@link #toDrain} in turns, one per replica, each to be asked host after host and no further than the first refusal.
     * A host that accepts an idle drain exits at once (fact A3.14), and under {@code restartPolicy: Never} its pod ends and
     * KubeRay deletes the whole replica (B8.33), so a refusal after an acceptance loses the refusing host's work. Hosts are
     * asked least idle first, by the GCS read made right before: a host that took work since the snapshot is asked
     * first and refuses before any other host of its replica has been drained.
     */
    public List<List<PodDeletion>> drainTurns() {
        Map<String, List<PodDeletion>> byReplica = new LinkedHashMap<>();
        for (PodDeletion deletion : toDrain) {
            byReplica.computeIfAbsent(replicaOf(deletion.podName()), replica -> new ArrayList<>()).add(deletion);
        }
        List<List<PodDeletion>> turns = new ArrayList<>();
        for (List<PodDeletion> hosts : byReplica.values()) {
            hosts.sort(Comparator.comparingLong(deletion -> idleMs.getOrDefault(deletion.nodeId(), 0L)));
            turns.add(List.copyOf(hosts));
        }
        return turns;
    }

    /** Records Ray's answers to the drains; {@code refusals} maps a pod to why its drain was not accepted. */
    public void settle(Map<String, String> refusals) {
        for (PodDeletion deletion : toDrain) {
            String refusal = refusals.get(deletion.podName());
            if (refusal == null) {
                accepted.add(deletion);
            } else {
                reject(deletion, refusal);
            }
        }
        toDrain.clear();
        keepWholeReplicasOnly();
    }

    /**
     * Keeps back accepted pods in which, by a GCS read made after the drains, another raylet than the
     * drained one is alive: the drain reached a node that had already gone, and the new one may run work.
     */
    public void recheck(Map<String, List<String>> liveNodesAfterDrain) {
        accepted.removeIf(deletion -> {
            List<String> others = liveNodesAfterDrain.getOrDefault(deletion.podName(), List.of()).stream()
                    .filter(node -> !node.equals(deletion.nodeId())).toList();
            if (deletion.nodeId() != null && !others.isEmpty()) {
                reject(deletion, "a new raylet (node " + shortId(others.get(0)) + ") registered in the pod; not deleted");
                return true;
            }
            return false;
        });
        keepWholeReplicasOnly();
    }

    /** A multi-host replica goes whole or not at all: one refused host keeps every host of the replica. */
    private void keepWholeReplicasOnly() {
        Set<String> refusedReplicas = new LinkedHashSet<>();
        rejected.forEach(refusal -> refusedReplicas.add(replicaOf(refusal.podName())));
        accepted.removeIf(deletion -> {
            if (refusedReplicas.contains(replicaOf(deletion.podName()))) {
                reject(deletion, deletion.nodeId() == null ? KEPT_WITH_ITS_REPLICA : KEPT_WITH_ITS_REPLICA + DRAINED_NONETHELESS);
                return true;
            }
            return false;
        });
    }

    public int replicasBefore() {
        return spec.replicasOrZero();
    }

    /**
     * The decision's target, plus the replicas it wanted removed but could not name, re-clamped to min
     * and max, and never below the pods that will still exist and be counted by the operator.
     */
    public int replicasAfter() {
        int wanted = finishing ? replicasBefore() - removedReplicas(accepted)
                : target.targetReplicas() + removedReplicas(target.toDelete()) - removedReplicas(accepted);
        int floor = ceilDiv(podsCountedAfter(), spec.hosts());
        return Math.max(Math.max(spec.min(), floor), Math.min(spec.max(), wanted));
    }

    /**
     * The pods as read again right before the patch. While drains ran, a pod named for deletion may have been lost with its
     * node; the operator, not yet seeing the patch, replaces it under the replicas it has, now or in a moment. So a pod gone
     * is no longer named and its replica is kept: were replicas to drop for it, the operator would find its replacement one
     * pod too many and delete a pod of its own choosing (fact B6.27). The replacements already made are counted in the
     * floor of {@link #replicasAfter}. A pod still terminating stays named: the operator counts it until it is gone
     * (B6.28), and once named, no longer.
     */
    public void podsNow(Map<String, ObservedCluster.ObservedPod> now) {
        podsLastRead = Map.copyOf(now);
        accepted.removeIf(deletion -> {
            if (!now.containsKey(deletion.podName())) {
                reject(deletion, "the pod was gone when the pods were read again after the drains; the operator replaces it,"
                        + " so its replica is kept");
                return true;
            }
            return false;
        });
        keepWholeReplicasOnly();
    }

    /** Pods of this group the operator will count after the patch: all that exist, terminating too, but those named. */
    private int podsCountedAfter() {
        Set<String> named = new LinkedHashSet<>(workersToDeleteAfter());
        int count = 0;
        for (ObservedCluster.ObservedPod pod : podsLastRead.values()) {
            if (name.equals(pod.group()) && !named.contains(pod.name())) {
                count++;
            }
        }
        return count;
    }

    public List<String> workersToDeleteAfter() {
        return previousInProgress ? spec.workersToDelete() : accepted.stream().map(PodDeletion::podName).toList();
    }

    public boolean changes() {
        return replicasAfter() != replicasBefore() || !workersToDeleteAfter().equals(spec.workersToDelete());
    }

    public List<DrainRejection> rejected() {
        return List.copyOf(rejected);
    }

    public List<PodDeletion> accepted() {
        return List.copyOf(accepted);
    }

    public List<String> acceptedPods() {
        return accepted.stream().map(PodDeletion::podName).toList();
    }

    /** Deletions named after a drain Ray accepted. */
    public List<PodDeletion> drained() {
        return accepted.stream().filter(deletion -> deletion.nodeId() != null).toList();
    }

    public String name() {
        return name;
    }

    public int index() {
        return index;
    }

    public GroupActuation result(boolean applied) {
        int after = applied ? replicasAfter() : replicasBefore();
        return new GroupActuation(name, replicasBefore(), after, applied ? acceptedPods() : List.of(), rejected);
    }

    /** Replicas a list of deletions removes: replicas (not pods), and never for a pod that is only replaced. */
    private int removedReplicas(List<PodDeletion> deletions) {
        Set<String> replicas = new LinkedHashSet<>();
        for (PodDeletion deletion : deletions) {
            if (deletion.cause() != DeletionCause.STUCK_PENDING) {
                replicas.add(replicaOf(deletion.podName()));
            }
        }
        return replicas.size();
    }

    private String replicaOf(String podName) {
        ObservedCluster.ObservedPod pod = pods.get(podName);
        return pod == null ? podName : pod.replica();
    }

    private static int ceilDiv(int a, int b) {
        return (a + b - 1) / b;
    }
}
