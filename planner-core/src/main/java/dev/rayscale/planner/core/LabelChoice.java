package dev.rayscale.planner.core;

import dev.rayscale.events.LabelSelector;
import java.util.List;

/**
 * Ray's ordered label-selector fallback: the first alternative that some node, or some worker group's
 * nodes, can satisfy is the one that applies.
 */
final class LabelChoice {

    /** Returned when no alternative can be satisfied anywhere. */
    static final LabelSelector UNMATCHABLE = new LabelSelector(List.of());

    private LabelChoice() {
    }

    /** The selector to apply, null for none, or {@link #UNMATCHABLE}. */
    static LabelSelector select(Plan plan, List<LabelSelector> alternatives) {
        if (alternatives.isEmpty()) {
            return null;
        }
        for (LabelSelector selector : alternatives) {
            if (satisfiable(plan, selector)) {
                return selector;
            }
        }
        return UNMATCHABLE;
    }

    private static boolean satisfiable(Plan plan, LabelSelector selector) {
        for (Node node : plan.running) {
            if (selector.matches(node.labels)) {
                return true;
            }
        }
        for (Group group : plan.groups) {
            if (!group.suspended() && selector.matches(group.labels)) {
                return true;
            }
        }
        return false;
    }
}
