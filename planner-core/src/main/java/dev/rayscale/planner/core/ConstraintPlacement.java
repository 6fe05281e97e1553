package dev.rayscale.planner.core;

import dev.rayscale.events.InfeasibleDemand;
import dev.rayscale.events.ResourceConstraint;
import java.util.List;

/**
 * {@code request_resources}: the cluster must be able to hold every bundle at once, counted against
 * total capacity (as if every node were idle). New nodes are added for what does not fit; a
 * constraint that cannot be met in full adds nothing and is reported infeasible (all or nothing).
 */
final class ConstraintPlacement {

    private ConstraintPlacement() {
    }

    static void apply(Plan plan, Packer packer) {
        for (ResourceConstraint constraint : plan.snapshot.demand().constraints()) {
            if (constraint.bundles().isEmpty()) {
                continue;
            }
            List<Request> requests = Requests.of(plan, constraint.bundles());
            Ledger ledger = new Ledger(Pool.CONSTRAINT);
            packer.placeOnKnownNodes(requests, ledger);
            packer.openNodes(requests, Group.Need.CONSTRAINTS, ledger);
            Request left = ledger.commitIfComplete(plan, requests);
            if (left == null) {
                continue;
            }
            Infeasibility.Why why = Infeasibility.of(plan, left.shape, null);
            plan.infeasible.add(InfeasibleDemand.constraint(constraint.bundles(), why.reason(),
                    "request_resources cannot be met in full: " + why.detail()));
        }
    }
}
