package dev.rayscale.tune;

import dev.rayscale.events.LabelSelector;
import dev.rayscale.events.Resources;
import dev.rayscale.planner.core.NodeCost;
import java.util.List;

/** Pending work of one kind: a task shape with its label selectors, or a placement group's bundles with its strategy. */
record DemandKey(Resources shape, List<LabelSelector> selectors, String gangStrategy) {

    static DemandKey task(Resources shape, List<LabelSelector> selectors) {
        return new DemandKey(shape, List.copyOf(selectors), null);
    }

    /** The resource whose use tells how long this work runs: an accelerator if it asks for one, else CPU, else its first. */
    String keyResource() {
        for (String accelerator : NodeCost.ACCELERATORS) {
            if (shape.has(accelerator)) {
                return accelerator;
            }
        }
        return shape.has("CPU") || shape.isEmpty() ? "CPU" : shape.names().iterator().next();
    }

    double amountOf(String resource) {
        return shape.has(resource) ? shape.get(resource).toBigDecimal().doubleValue() : 0;
    }
}
