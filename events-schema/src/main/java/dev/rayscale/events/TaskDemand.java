package dev.rayscale.events;

import java.util.List;

/**
 * {@code count} pending tasks or actors that each need {@code shape} on one node.
 *
 * @param labelSelectors alternatives in order of preference: the first that some node can satisfy
 *     applies; empty means any node
 */
public record TaskDemand(Resources shape, long count, List<LabelSelector> labelSelectors) {

    public TaskDemand {
        Fields.required(shape, "tasks.shape");
        Fields.positive(count, "tasks.count");
        labelSelectors = Fields.list(labelSelectors);
    }

    public TaskDemand(Resources shape, long count) {
        this(shape, count, List.of());
    }
}
