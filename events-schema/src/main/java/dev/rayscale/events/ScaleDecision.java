package dev.rayscale.events;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import java.time.Instant;
import java.util.List;

/**
 * What the planner decided for one snapshot: the replicas each worker group should have and the pods
 * to remove, with the reasons. Published when it changes something, or has what Ray's status must show
 * ({@link #worthPublishing()}).
 *
 * @param snapshotId id of the snapshot it was computed from
 * @param snapshotSequence that snapshot's per-cluster sequence; the actuator never applies an older one
 *     after a newer one
 * @param resourceVersion the RayCluster {@code resourceVersion} the decision assumed
 * @param decidedAt equals the snapshot's observedAt: the planner reads no clock
 * @param expiresAt after this instant the decision must not be applied
 * @param groups one entry per worker group, in spec order, changed or not
 * @param infeasible demand the plan could not place, with why
 * @param launches per group, the new pods asked for and the pods already waiting
 * @param stuckPods pods that have waited for a node longer than the policy's patience
 * @param mode how far the planner went; absent in decisions written before it was recorded
 * @param reasons a short human-readable account of the decision: {@code codedReasons} as text
 * @param codedReasons the reasons as data, each with its code and group; absent in decisions written before they
 *     were recorded
 */
public record ScaleDecision(
        int schemaVersion,
        String id,
        ClusterRef cluster,
        String snapshotId,
        long snapshotSequence,
        String resourceVersion,
        Instant decidedAt,
        Instant expiresAt,
        List<GroupTarget> groups,
        List<InfeasibleDemand> infeasible,
        List<PendingLaunch> launches,
        List<StuckPod> stuckPods,
        DecisionMode mode,
        List<String> reasons,
        @JsonInclude(JsonInclude.Include.NON_EMPTY) List<Reason> codedReasons,
        PlannerInfo planner) implements RayscaleEvent {

    public static final int SCHEMA_VERSION = 1;

    public ScaleDecision {
        Fields.requiredText(id, "id");
        Fields.required(cluster, "cluster");
        Fields.requiredText(snapshotId, "snapshotId");
        Fields.notNegative(snapshotSequence, "snapshotSequence");
        Fields.requiredText(resourceVersion, "resourceVersion");
        Fields.required(decidedAt, "decidedAt");
        Fields.required(expiresAt, "expiresAt");
        if (expiresAt.isBefore(decidedAt)) {
            throw new IllegalArgumentException("expiresAt must not be before decidedAt");
        }
        groups = Fields.list(groups);
        infeasible = Fields.list(infeasible);
        launches = Fields.list(launches);
        stuckPods = Fields.list(stuckPods);
        reasons = Fields.list(reasons);
        codedReasons = Fields.list(codedReasons);
        Fields.required(planner, "planner");
    }

    /** True if applying the decision would change the RayCluster. */
    @JsonIgnore
    public boolean changesAnything() {
        return groups.stream().anyMatch(GroupTarget::changesAnything);
    }

    /** True if the decision asks for more replicas of some group: demand is waiting for it. */
    @JsonIgnore
    public boolean grows() {
        return groups.stream().anyMatch(group -> group.targetReplicas() > group.currentReplicas());
    }

    /**
     * True if the decision is worth publishing: it changes the RayCluster, or it has what Ray's status must
     * show even when nothing changes — demand no node can take, pods that cannot be created.
     */
    @JsonIgnore
    public boolean worthPublishing() {
        return changesAnything() || !infeasible.isEmpty() || launches.stream().anyMatch(launch -> launch.failed() > 0);
    }

    @Override
    @JsonIgnore
    public Instant time() {
        return decidedAt;
    }
}
