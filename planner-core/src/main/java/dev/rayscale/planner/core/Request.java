package dev.rayscale.planner.core;

import dev.rayscale.events.LabelSelector;

/**
 * {@code count} copies of one shape still to be placed, with what restricts where they may go.
 *
 * @param selector the label selector the nodes must match, or null for any node
 * @param spreadGang for a strict-spread bundle, its gang's number: at most one bundle of that gang per node; -1 otherwise
 */
final class Request {

    final Shape shape;
    final LabelSelector selector;
    final int spreadGang;
    long count;

    Request(Shape shape, long count, LabelSelector selector, int spreadGang) {
        this.shape = shape;
        this.count = count;
        this.selector = selector;
        this.spreadGang = spreadGang;
    }

    boolean allows(Node node) {
        return !node.removed && (selector == null || selector.matches(node.labels))
                && (spreadGang < 0 || node.lastGang != spreadGang);
    }

    boolean allows(Group group) {
        return selector == null || selector.matches(group.labels);
    }

    /** Copies one node may take: one for a strict-spread bundle. */
    long perNodeLimit() {
        return spreadGang < 0 ? count : Math.min(count, 1);
    }
}
