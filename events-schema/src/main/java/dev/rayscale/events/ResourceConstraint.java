package dev.rayscale.events;

import java.util.List;

/**
 * One {@code request_resources} call: the cluster must be able to hold all these bundles at once,
 * counted against total (not available) capacity. Satisfied as a whole or reported infeasible.
 */
public record ResourceConstraint(List<ShapeCount> bundles) {

    public ResourceConstraint {
        bundles = Fields.list(bundles);
    }
}
