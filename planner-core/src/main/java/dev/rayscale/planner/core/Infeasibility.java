package dev.rayscale.planner.core;

import dev.rayscale.events.InfeasibleReason;
import dev.rayscale.events.LabelSelector;

/** Why demand that the plan could not place cannot be placed, in the words of {@link InfeasibleReason}. */
final class Infeasibility {

    record Why(InfeasibleReason reason, String detail) {
    }

    private Infeasibility() {
    }

    static Why of(Plan plan, Shape shape, LabelSelector selector) {
        boolean fitsSize = false;
        boolean fitsLabels = false;
        boolean fitsRunnable = false;
        boolean fitsLaunchable = false;
        int fewestHosts = Integer.MAX_VALUE;
        for (Group group : plan.groups) {
            if (!shape.fitsIn(group.nodeResources)) {
                continue;
            }
            fitsSize = true;
            if (selector != null && !selector.matches(group.labels)) {
                continue;
            }
            fitsLabels = true;
            if (group.suspended()) {
                continue;
            }
            fitsRunnable = true;
            if (group.launchFailing()) {
                continue;
            }
            fitsLaunchable = true;
            fewestHosts = Math.min(fewestHosts, group.hosts);
        }
        if (!fitsSize) {
            return new Why(InfeasibleReason.NO_GROUP_FITS, "no worker group's nodes can hold " + shape);
        }
        if (!fitsLabels) {
            return new Why(InfeasibleReason.LABELS_UNMATCHED, "no worker group big enough for " + shape + " has labels matching " + selector);
        }
        if (!fitsRunnable) {
            return new Why(InfeasibleReason.SUSPENDED, "every worker group that could hold " + shape + " is suspended");
        }
        if (!fitsLaunchable) {
            return new Why(InfeasibleReason.LAUNCH_FAILED, "the worker groups that could hold " + shape
                    + " cannot get pods: the operator's pod creation fails");
        }
        if (plan.policy.maxWorkers() != null && plan.workerRoom() < fewestHosts) {
            return new Why(InfeasibleReason.MAX_WORKERS, "the cluster is at its cap of " + plan.policy.maxWorkers() + " workers");
        }
        return new Why(InfeasibleReason.MAX_REPLICAS, "the worker groups that can hold " + shape + " are at maxReplicas");
    }
}
