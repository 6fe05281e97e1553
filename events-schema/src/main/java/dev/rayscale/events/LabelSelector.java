package dev.rayscale.events;

import java.util.List;
import java.util.Map;

/** Constraints on a node's Ray labels; a node matches when it satisfies all of them. */
public record LabelSelector(List<LabelConstraint> constraints) {

    public LabelSelector {
        constraints = Fields.list(constraints);
    }

    public boolean matches(Map<String, String> labels) {
        return constraints.stream().allMatch(constraint -> constraint.matches(labels));
    }
}
