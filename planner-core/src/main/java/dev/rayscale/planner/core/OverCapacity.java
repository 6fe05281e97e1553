package dev.rayscale.planner.core;

import dev.rayscale.events.DeletionCause;
import dev.rayscale.events.ReasonCode;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Brings groups above their maxReplicas, and a cluster above its worker cap, back down: by replicas
 * not yet started first, then by pods still waiting for a node, then by idle nodes (longest idle
 * first). A busy node is never chosen; what cannot be shrunk is noted in the decision.
 */
final class OverCapacity {

    private OverCapacity() {
    }

    static void apply(Plan plan) {
        for (Group group : plan.groups) {
            int excess = group.currentSize() - group.max();
            if (excess > 0 && !group.suspended()) {
                int removed = removeReplicas(plan, candidates(plan, group), excess, DeletionCause.MAX_REPLICAS, group.deletionInProgress);
                group.removedOverMax += removed;
                if (removed < excess) {
                    group.notes.add((excess - removed) + " replica(s) above maxReplicas " + group.max()
                            + " are busy and were kept; the operator may remove pods of its own choosing");
                }
            }
        }
        Integer cap = plan.policy.maxWorkers();
        if (cap != null && plan.plannedWorkers() > cap) {
            shrinkToClusterCap(plan, cap);
        }
    }

    private static void shrinkToClusterCap(Plan plan, int cap) {
        // Replicas not started yet go first, the last groups' first. minReplicas above the cap are
        // launched only up to the cap (KubeRay itself still creates minReplicas pods: a cap below
        // the groups' minimums cannot hold there, and the decision says so).
        for (int i = plan.waiting.size() - 1; i >= 0 && plan.plannedWorkers() > cap; i--) {
            Node node = plan.waiting.get(i);
            Group group = node.group;
            if (node.origin == Node.Origin.LAUNCHING && !node.removed
                    && (group.plannedSize() > group.min() || group.plannedSize() > group.spec.replicas())) {
                removeLaunchingReplica(plan, group);
                String note = "minReplicas " + group.min() + " exceed the cluster cap of " + cap + " workers";
                if (group.plannedSize() < group.min() && !group.notes.contains(note)) {
                    group.notes.add(note);
                }
            }
        }
        List<Replicas.Replica> candidates = new ArrayList<>();
        for (Group group : plan.groups) {
            if (!group.suspended() && !group.deletionInProgress) {
                candidates.addAll(candidates(plan, group));
            }
        }
        candidates.sort(REMOVAL_ORDER);
        for (Replicas.Replica replica : candidates) {
            int excessNodes = plan.plannedWorkers() - cap;
            if (excessNodes <= 0) {
                return;
            }
            if (replica.group().plannedSize() - 1 >= replica.group().min()) {
                replica.remove(DeletionCause.MAX_WORKERS);
                replica.group().removedReplicas++;
            }
        }
        if (plan.plannedWorkers() > cap) {
            plan.because(ReasonCode.ABOVE_WORKER_CAP, (plan.plannedWorkers() - cap) + " worker(s) above the cluster cap of " + cap
                    + " are busy or needed for minReplicas and were kept");
        }
    }

    private static void removeLaunchingReplica(Plan plan, Group group) {
        int marked = 0;
        for (int i = plan.waiting.size() - 1; i >= 0 && marked < group.hosts; i--) {
            Node node = plan.waiting.get(i);
            if (node.group == group && node.origin == Node.Origin.LAUNCHING && !node.removed) {
                node.removed = true;
                marked++;
            }
        }
        group.removedReplicas++;
    }

    /** Pods waiting for a node first, then idle replicas longest idle first; never a busy one. */
    private static final Comparator<Replicas.Replica> REMOVAL_ORDER = Comparator
            .comparing((Replicas.Replica replica) -> replica.all(Node::isRegistered))
            .thenComparing(Replicas.Replica::idleMs, Comparator.reverseOrder());

    private static List<Replicas.Replica> candidates(Plan plan, Group group) {
        List<Replicas.Replica> removable = new ArrayList<>();
        for (Replicas.Replica replica : Replicas.of(plan)) {
            if (replica.group() == group && replica.complete() && replica.all(node -> !node.removed)
                    && (replica.all(node -> !node.isRegistered()) || replica.all(node -> node.reportedIdle && !node.inFlux))) {
                removable.add(replica);
            }
        }
        removable.sort(REMOVAL_ORDER);
        return removable;
    }

    private static int removeReplicas(Plan plan, List<Replicas.Replica> candidates, int count, DeletionCause cause, boolean blocked) {
        if (blocked) {
            return 0;
        }
        int removed = 0;
        for (Replicas.Replica replica : candidates) {
            if (removed == count) {
                break;
            }
            replica.remove(cause);
            removed++;
        }
        return removed;
    }
}
