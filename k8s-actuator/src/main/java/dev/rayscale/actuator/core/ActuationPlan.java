package dev.rayscale.actuator.core;

import dev.rayscale.events.DrainRejection;
import dev.rayscale.events.GroupActuation;
import dev.rayscale.events.GroupTarget;
import dev.rayscale.events.PodDeletion;
import dev.rayscale.events.ScaleDecision;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * What one decision becomes on one observed RayCluster, group by group: the nodes to drain, then,
 * once Ray has answered, the pods to name and the replicas to set. Pure: the shell around it reads,
 * drains and writes.
 */
public final class ActuationPlan {

    /** The RayCluster as observed, its pods as last read. */
    private ObservedCluster cluster;
    private final List<GroupPlan> groups;

    private ActuationPlan(ObservedCluster cluster, List<GroupPlan> groups) {
        this.cluster = cluster;
        this.groups = groups;
    }

    /** The plan for a decision the {@link Verdict} found fresh. */
    public static ActuationPlan of(ScaleDecision decision, ObservedCluster cluster) {
        List<GroupPlan> groups = new ArrayList<>();
        for (GroupTarget target : decision.groups()) {
            groups.add(GroupPlan.of(target.index(), cluster.groups().get(target.index()), target, cluster));
        }
        return new ActuationPlan(cluster, groups);
    }

    /**
     * The plan that only finishes removing what an earlier plan drained, against the RayCluster as it
     * is now (after a conflict, or once the decision has expired while its drains ran).
     */
    public static ActuationPlan finishing(ActuationPlan drained, ObservedCluster now) {
        List<GroupPlan> groups = new ArrayList<>();
        for (GroupPlan group : drained.groups) {
            List<PodDeletion> done = group.drained();
            if (!done.isEmpty() && group.index() < now.groups().size() && now.groups().get(group.index()).name().equals(group.name())) {
                groups.add(GroupPlan.finishing(group.index(), now.groups().get(group.index()), done, now));
            }
        }
        return new ActuationPlan(now, groups);
    }

    public ObservedCluster cluster() {
        return cluster;
    }

    public List<GroupPlan> groups() {
        return List.copyOf(groups);
    }

    public List<PodDeletion> toDrain() {
        return groups.stream().flatMap(group -> group.toDrain().stream()).toList();
    }

    /** The drains in turns ({@link GroupPlan#drainTurns}): turns side by side, the hosts of one turn one after another. */
    public List<List<PodDeletion>> drainTurns() {
        return groups.stream().flatMap(group -> group.drainTurns().stream()).toList();
    }

    public void settle(Map<String, String> refusals) {
        groups.forEach(group -> group.settle(refusals));
    }

    /** The cluster's pods as read again right before the patch ({@link GroupPlan#podsNow}). */
    public void podsNow(Map<String, ObservedCluster.ObservedPod> now) {
        cluster = cluster.withPods(now);
        groups.forEach(group -> group.podsNow(now));
    }

    public void recheck(Map<String, List<String>> liveNodesAfterDrain) {
        groups.forEach(group -> group.recheck(liveNodesAfterDrain));
    }

    public boolean changes() {
        return groups.stream().anyMatch(GroupPlan::changes);
    }

    /** True if any drain Ray accepted is in the plan: those nodes are going whatever happens next. */
    public boolean drainedAny() {
        return groups.stream().anyMatch(group -> !group.drained().isEmpty());
    }

    public boolean refusedAny() {
        return groups.stream().anyMatch(group -> !group.rejected().isEmpty());
    }

    public List<DrainRejection> rejections() {
        return groups.stream().flatMap(group -> group.rejected().stream()).toList();
    }

    public List<GroupActuation> results(boolean applied) {
        return groups.stream().filter(group -> group.changes() || !group.rejected().isEmpty()).map(group -> group.result(applied)).toList();
    }

    /** What the patch does, for people: {@code small-group replicas 3 -> 2, workersToDelete [a]}. */
    public String summary() {
        return groups.stream().filter(GroupPlan::changes)
                .map(group -> group.name() + " replicas " + group.replicasBefore() + " -> " + group.replicasAfter()
                        + (group.acceptedPods().isEmpty() ? "" : ", workersToDelete " + group.acceptedPods())
                        + (group.rejected().isEmpty() ? "" : ", " + group.rejected().size() + " kept"))
                .collect(Collectors.joining("; "));
    }
}
