package dev.rayscale.planner.core;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.List;

/**
 * How fast new nodes for tasks may come. With an upscaling speed s (KubeRay's Conservative mode is
 * s = 1; Default and Aggressive have none), a group may have at most {@code max(1, ceil(s x its
 * registered nodes))} pods pending; and a cluster at most the policy's maxPendingLaunches. Nodes for
 * minReplicas, placement groups and request_resources are never held back, but they count as pending.
 * The launches opened first (the best-scored) are kept; the rest wait for a later decision.
 */
final class UpscalingLimit {

    private UpscalingLimit() {
    }

    /** Cuts launches beyond the limits; returns, per request, the copies that were cut (deferred). */
    static long[] apply(Plan plan, List<Packer.Launch> launches, int requestCount) {
        long[] deferred = new long[requestCount];
        int[] allowed = new int[plan.groups.size()];
        long clusterBudget = plan.policy.maxPendingLaunches();
        for (int g = 0; g < allowed.length; g++) {
            Group group = plan.groups.get(g);
            int pending = group.pendingNodes() + (group.added(Group.Need.CONSTRAINTS) + group.added(Group.Need.GANGS)) * group.hosts;
            clusterBudget -= pending;
            allowed[g] = allowedReplicas(plan.policy.upscalingSpeed(), group, pending);
        }
        for (Packer.Launch launch : launches) {
            int g = plan.groups.indexOf(launch.group());
            if (allowed[g] > 0 && clusterBudget > 0) {
                allowed[g]--;
                clusterBudget -= launch.group().hosts;
                continue;
            }
            launch.nodes().forEach(node -> node.removed = true);
            launch.group().add(Group.Need.TASKS, -1);
            for (int i = 0; i < requestCount; i++) {
                deferred[i] += launch.placed()[i];
            }
        }
        return deferred;
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
