package dev.rayscale.events;

import java.util.List;

/**
 * Demand the plan could not place.
 *
 * @param kind which part of the demand: a task shape, a gang, or a request_resources constraint
 * @param shape the task shape (TASK only)
 * @param count how many tasks of that shape could not be placed (TASK only)
 * @param gangId the placement group (GANG only)
 * @param bundles the gang's bundles or the constraint's bundles (GANG and CONSTRAINT)
 * @param detail the specifics, for people
 */
public record InfeasibleDemand(
        DemandKind kind,
        Resources shape,
        Long count,
        String gangId,
        List<ShapeCount> bundles,
        InfeasibleReason reason,
        String detail) {

    public InfeasibleDemand {
        Fields.required(kind, "infeasible.kind");
        Fields.required(reason, "infeasible.reason");
        bundles = Fields.list(bundles);
        switch (kind) {
            case TASK -> {
                Fields.required(shape, "infeasible.shape");
                Fields.positive(Fields.required(count, "infeasible.count"), "infeasible.count");
            }
            case GANG -> Fields.requiredText(gangId, "infeasible.gangId");
            case CONSTRAINT -> { }
        }
    }

    public static InfeasibleDemand task(Resources shape, long count, InfeasibleReason reason, String detail) {
        return new InfeasibleDemand(DemandKind.TASK, shape, count, null, List.of(), reason, detail);
    }

    public static InfeasibleDemand gang(String gangId, List<ShapeCount> bundles, InfeasibleReason reason, String detail) {
        return new InfeasibleDemand(DemandKind.GANG, null, null, gangId, bundles, reason, detail);
    }

    public static InfeasibleDemand constraint(List<ShapeCount> bundles, InfeasibleReason reason, String detail) {
        return new InfeasibleDemand(DemandKind.CONSTRAINT, null, null, null, bundles, reason, detail);
    }
}
