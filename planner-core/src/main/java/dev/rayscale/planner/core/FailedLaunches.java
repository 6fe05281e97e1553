package dev.rayscale.planner.core;

import dev.rayscale.events.InfeasibleDemand;
import dev.rayscale.events.InfeasibleReason;
import dev.rayscale.events.ReasonCode;

/**
 * Replicas asked for whose pods the operator cannot create (a quota, an admission webhook: fact B9.34)
 * are no capacity: no demand is placed on them, and demand that only such a group could take is
 * reported infeasible ({@code LAUNCH_FAILED}). While such demand waits, the replicas stay asked for,
 * so that the operator keeps trying and a freed quota brings the pods. Once nothing waits for them
 * they are given back, so that the operator stops failing and the cluster can settle.
 */
final class FailedLaunches {

    private FailedLaunches() {
    }

    static void apply(Plan plan) {
        boolean waiting = plan.infeasible.stream().map(InfeasibleDemand::reason).anyMatch(InfeasibleReason.LAUNCH_FAILED::equals);
        if (waiting) {
            return;
        }
        for (Group group : plan.groups) {
            int failed = group.failedReplicas();
            int keep = Math.max(group.min(), group.plannedSize() - failed);
            if (failed > 0 && keep < group.plannedSize()) {
                plan.because(ReasonCode.LAUNCHES_GIVEN_BACK, group, "give back " + (group.plannedSize() - keep) + " replica(s) whose pods cannot be created;"
                        + " no demand waits for them");
                group.removedReplicas += group.plannedSize() - keep;
            }
        }
    }
}
