package dev.rayscale.planner.core;

import java.math.BigDecimal;
import java.math.RoundingMode;

/**
 * How fast new nodes for tasks may come. With an upscaling speed s (KubeRay's Conservative mode is
 * s = 1; Default and Aggressive have none), a group may have at most {@code max(1, ceil(s x its
 * registered nodes))} pods pending; and a cluster at most the policy's maxPendingLaunches. Nodes for
 * minReplicas, placement groups and request_resources are never held back, but they count as pending.
 * Launches are granted in the order packing opens them (the best-scored first); the rest wait for a
 * later decision.
 *
 * <p>The budget is consulted while packing, so that a launch beyond it is never made into nodes: a
 * backlog of a hundred thousand tasks costs a count, not a hundred thousand node objects.
 */
final class UpscalingLimit {

    private final Plan plan;
    private final int[] allowed;
    private long clusterBudget;

    private UpscalingLimit(Plan plan) {
        this.plan = plan;
        this.allowed = new int[plan.groups.size()];
        this.clusterBudget = plan.policy.maxPendingLaunches();
        for (int g = 0; g < allowed.length; g++) {
            Group group = plan.groups.get(g);
            int pending = group.pendingNodes() + (group.added(Group.Need.CONSTRAINTS) + group.added(Group.Need.GANGS)) * group.hosts;
            clusterBudget -= pending;
            allowed[g] = allowedReplicas(plan.policy.upscalingSpeed(), group, pending);
        }
    }

    /** The budget for the task launches of this plan, once constraints and placement groups have been placed. */
    static UpscalingLimit of(Plan plan) {
        return new UpscalingLimit(plan);
    }

    /** Of {@code replicas} launches of {@code group} opened in a row, how many may really launch now; takes them from the budget. */
    int grant(Group group, int replicas) {
        int g = plan.groups.indexOf(group);
        int granted = 0;
        while (granted < replicas && allowed[g] > 0 && clusterBudget > 0) {
            allowed[g]--;
            clusterBudget -= group.hosts;
            granted++;
        }
        return granted;
    }

    /** How many launches of {@code group} {@link #grant} would grant now. */
    long grantable(Group group) {
        int g = plan.groups.indexOf(group);
        return Math.min(allowed[g], Math.max(0, (clusterBudget + group.hosts - 1) / group.hosts));
    }

    private static int allowedReplicas(BigDecimal speed, Group group, int pending) {
        if (speed == null) {
            return Integer.MAX_VALUE;
        }
        long maxPending = Math.max(1, speed.multiply(BigDecimal.valueOf(group.registeredNodes))
                .setScale(0, RoundingMode.CEILING).longValueExact());
        long allowedNodes = Math.max(0, maxPending - pending);
        return (int) Math.min(Integer.MAX_VALUE, (allowedNodes + group.hosts - 1) / group.hosts);
    }
}
