package dev.rayscale.planner.core;

import dev.rayscale.events.InfeasibleDemand;
import dev.rayscale.events.InfeasibleReason;
import dev.rayscale.events.LabelSelector;
import dev.rayscale.events.Packing;
import dev.rayscale.events.ReasonCode;
import dev.rayscale.events.TaskDemand;
import java.util.List;

/**
 * Pending tasks and actors: packed onto what exists, then onto what is on its way, then onto new
 * nodes; the new nodes are then held to the upscaling limits and, with economical packing, made cheaper. What no group can take is reported
 * infeasible; what the limits hold back waits for a later decision.
 */
final class TaskPlacement {

    private TaskPlacement() {
    }

    static void apply(Plan plan, Packer packer) {
        Requests merged = new Requests(plan, -1);
        for (TaskDemand task : plan.snapshot.demand().tasks()) {
            LabelSelector selector = LabelChoice.select(plan, task.labelSelectors());
            if (selector == LabelChoice.UNMATCHABLE) {
                plan.infeasible.add(InfeasibleDemand.task(task.shape(), task.count(), InfeasibleReason.LABELS_UNMATCHED,
                        "no node or worker group matches any of the label selectors " + task.labelSelectors()));
                continue;
            }
            merged.add(task.shape(), task.count(), selector);
        }
        List<Request> requests = merged.sorted();
        if (requests.isEmpty()) {
            return;
        }
        long[] asked = new long[requests.size()];
        for (int i = 0; i < asked.length; i++) {
            asked[i] = requests.get(i).count;
        }
        Ledger ledger = new Ledger(Pool.DEMAND);
        packer.placeOnKnownNodes(requests, ledger);
        long[] deferred = new long[requests.size()];
        UpscalingLimit limit = UpscalingLimit.of(plan);
        packer.openNodes(requests, Group.Need.TASKS, ledger, limit, deferred);
        if (plan.policy.packing() == Packing.ECONOMICAL) {
            EconomicalPacking.apply(plan, packer, ledger, limit, requests);
        }
        ledger.commit();
        plan.groups.forEach(group -> group.deferredReplicas = 0);
        for (int i = 0; i < requests.size(); i++) {
            Request request = requests.get(i);
            if (request.count > 0) {
                Infeasibility.Why why = Infeasibility.of(plan, request.shape, request.selector);
                plan.infeasible.add(InfeasibleDemand.task(plan.index.resources(request.shape.amounts), request.count, why.reason(),
                        why.detail()));
            }
            if (deferred[i] > 0) {
                plan.because(ReasonCode.UPSCALING_LIMITED, deferred[i] + " of " + asked[i] + " pending tasks of " + request.shape
                        + " wait for the upscaling limit");
            }
        }
    }
}
