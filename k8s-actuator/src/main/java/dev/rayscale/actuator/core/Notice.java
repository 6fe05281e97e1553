package dev.rayscale.actuator.core;

import dev.rayscale.events.DrainRejection;
import dev.rayscale.events.InfeasibleDemand;
import dev.rayscale.events.ScaleDecision;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * A Kubernetes Event the actuator records on a RayCluster, as data: the core says what people should be told,
 * the shell records it.
 */
public record Notice(boolean warning, String reason, String message) {

    /** A decision that was not applied for a reason other than a newer one: worth a warning on the cluster. */
    static Notice staleDecision(ScaleDecision decision, String why) {
        return new Notice(true, "StaleDecision", "decision " + decision.id() + " not applied: " + why);
    }

    /**
     * Another writer changed replicas or workersToDelete since Rayscale wrote them: who, what, and what Rayscale does about
     * it ({@link Contest}).
     */
    public static Notice otherWrite(OtherWrite other, Contest.Seen seen, int maxWrites, Duration hold) {
        String stance = seen.holdBegan()
                ? "it changed them again after Rayscale's " + maxWrites + " writes since, so Rayscale writes nothing to this cluster until "
                        + seen.contest().heldUntil()
                : "while it keeps doing so, Rayscale writes at most " + (maxWrites - seen.contest().writes()) + " more time(s), then holds for "
                        + hold;
        return new Notice(true, "ReplicasChangedByAnotherWriter", other.describe() + "; " + stance
                + ". Two writers of these fields make KubeRay delete pods of its own choosing: have " + other.manager()
                + " leave replicas and workersToDelete to Rayscale (docs/other-writers.md)");
    }

    /** One warning per removal Ray refused, naming the pod that was kept and why. */
    public static List<Notice> refusals(ScaleDecision decision, List<DrainRejection> rejections, boolean dryRun) {
        return rejections.stream().map(rejection -> new Notice(true, "DrainRejected", prefix(dryRun) + "kept " + rejection.podName()
                + ": " + rejection.reason() + " (decision " + decision.id() + ")")).toList();
    }

    /** What the plan changes, group by group, and the demand no node of the cluster can ever take. */
    static List<Notice> changes(ScaleDecision decision, ActuationPlan plan, boolean dryRun) {
        List<Notice> notices = new ArrayList<>();
        for (GroupPlan group : plan.groups()) {
            if (!group.changes()) {
                continue;
            }
            int before = group.replicasBefore();
            int after = group.replicasAfter();
            if (after > before) {
                notices.add(new Notice(false, "ScaledUp", prefix(dryRun) + group.name() + ": replicas " + before + " -> " + after
                        + " (decision " + decision.id() + ")"));
            } else if (!group.acceptedPods().isEmpty() || after < before) {
                notices.add(new Notice(false, "ScaledDown", prefix(dryRun) + group.name() + ": replicas " + before + " -> " + after
                        + (group.acceptedPods().isEmpty() ? "" : ", removing " + String.join(", ", group.acceptedPods()))
                        + " (decision " + decision.id() + ")"));
            }
        }
        if (!decision.infeasible().isEmpty()) {
            notices.add(new Notice(true, "InfeasibleDemand", prefix(dryRun) + decision.infeasible().stream()
                    .map(Notice::describe).collect(Collectors.joining("; ")) + " (decision " + decision.id() + ")"));
        }
        return notices;
    }

    private static String prefix(boolean dryRun) {
        return dryRun ? "(dry run) " : "";
    }

    private static String describe(InfeasibleDemand infeasible) {
        return switch (infeasible.kind()) {
            case TASK -> infeasible.count() + " task(s) of " + infeasible.shape() + ": " + infeasible.reason();
            case GANG -> "placement group " + infeasible.gangId() + ": " + infeasible.reason();
            case CONSTRAINT -> "request_resources: " + infeasible.reason();
        };
    }
}
