package dev.rayscale.planner.core;

import dev.rayscale.events.DeletionCause;
import dev.rayscale.events.ReasonCode;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Removes replicas Ray reports idle for longer than their group's idle timeout, longest idle first,
 * as long as no demand of this plan was packed onto them, their group stays at or above minReplicas,
 * and the operator has finished the group's previous deletions. A multi-host replica goes only when
 * every host qualifies. A busy node is never removed.
 */
final class IdleScaleDown {

    private IdleScaleDown() {
    }

    static void apply(Plan plan) {
        List<Replicas.Replica> idle = new ArrayList<>();
        for (Replicas.Replica replica : Replicas.of(plan)) {
            Group group = replica.group();
            if (!group.suspended() && !group.deletionInProgress && replica.complete()
                    && replica.all(node -> qualifies(node, group))) {
                idle.add(replica);
            }
        }
        idle.sort(Comparator.comparingLong(Replicas.Replica::idleMs).reversed());
        for (Replicas.Replica replica : idle) {
            Group group = replica.group();
            if (group.plannedSize() - 1 < group.min()) {
                continue;
            }
            replica.remove(DeletionCause.IDLE);
            group.removedReplicas++;
            plan.because(ReasonCode.IDLE_REMOVED, group, "remove " + String.join(", ", replica.hosts().stream().map(node -> node.podName).toList())
                    + ", idle " + replica.idleMs() / 1000 + "s > " + group.idleTimeoutMs / 1000 + "s");
        }
    }

    private static boolean qualifies(Node node, Group group) {
        return node.isRegistered() && !node.removed && !node.inFlux && node.reportedIdle && node.idleMs > group.idleTimeoutMs
                && !node.holdsDemand && !node.holdsConstraint;
    }
}
