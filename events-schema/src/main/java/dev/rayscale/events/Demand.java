package dev.rayscale.events;

import java.util.List;

/**
 * The work Ray cannot place on the cluster as it is, grouped by shape so that a hundred thousand
 * pending tasks of twenty shapes are twenty entries.
 *
 * @param tasks pending tasks and actors, one entry per shape and label selector
 * @param gangs pending placement groups, each placed all or nothing
 * @param constraints {@code ray.autoscaler.sdk.request_resources} floors, packed against total capacity
 */
public record Demand(List<TaskDemand> tasks, List<GangDemand> gangs, List<ResourceConstraint> constraints) {

    public static final Demand NONE = new Demand(List.of(), List.of(), List.of());

    public Demand {
        tasks = Fields.list(tasks);
        gangs = Fields.list(gangs);
        constraints = Fields.list(constraints);
    }
}
