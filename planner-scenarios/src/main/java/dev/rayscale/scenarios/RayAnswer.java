package dev.rayscale.scenarios;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.core.JsonProcessingException;
import dev.rayscale.events.DeletionCause;
import dev.rayscale.events.GroupTarget;
import dev.rayscale.events.InfeasibleDemand;
import dev.rayscale.events.PendingLaunch;
import dev.rayscale.events.PodDeletion;
import dev.rayscale.events.Resources;
import dev.rayscale.events.ScaleDecision;
import dev.rayscale.events.ShapeCount;
import dev.rayscale.events.codec.EventJson;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A decision in the words of Ray's v2 scheduler ({@code SchedulingReply}), with the field names of
 * the planner-scenarios goldens, so that the two can be compared field by field.
 */
@JsonPropertyOrder({"nodes_to_launch", "to_terminate", "infeasible_resource_requests",
        "infeasible_gang_resource_requests", "infeasible_cluster_resource_constraints"})
public record RayAnswer(
        @JsonProperty("nodes_to_launch") Map<String, Integer> nodesToLaunch,
        @JsonProperty("to_terminate") List<Termination> toTerminate,
        @JsonProperty("infeasible_resource_requests") List<ShapeCount> infeasibleResourceRequests,
        @JsonProperty("infeasible_gang_resource_requests") List<String> infeasibleGangResourceRequests,
        @JsonProperty("infeasible_cluster_resource_constraints") List<List<ShapeCount>> infeasibleClusterResourceConstraints) {

    /** One node Ray would terminate, with Ray's cause names. */
    public record Termination(
            @JsonProperty("instance_id") String instanceId,
            @JsonProperty("instance_type") String instanceType,
            @JsonProperty("cause") String cause) {
    }

    private static final Comparator<ShapeCount> BY_SHAPE = Comparator.comparing(bundle -> canonical(bundle.shape()));

    public static RayAnswer of(ScaleDecision decision) {
        Map<String, Integer> launch = new TreeMap<>();
        for (PendingLaunch pending : decision.launches()) {
            if (pending.requested() > 0) {
                launch.put(pending.group(), pending.requested());
            }
        }
        List<Termination> terminate = new ArrayList<>();
        for (GroupTarget group : decision.groups()) {
            for (PodDeletion deletion : group.toDelete()) {
                terminate.add(new Termination(deletion.podName(), group.name(), rayCause(deletion.cause())));
            }
        }
        terminate.sort(Comparator.comparing(Termination::instanceId));
        Map<Resources, Long> tasks = new LinkedHashMap<>();
        List<String> gangs = new ArrayList<>();
        List<List<ShapeCount>> constraints = new ArrayList<>();
        for (InfeasibleDemand infeasible : decision.infeasible()) {
            switch (infeasible.kind()) {
                case TASK -> tasks.merge(infeasible.shape(), infeasible.count(), Long::sum);
                case GANG -> gangs.add(infeasible.gangId());
                case CONSTRAINT -> constraints.add(infeasible.bundles().stream().sorted(BY_SHAPE).toList());
            }
        }
        gangs.sort(Comparator.naturalOrder());
        return new RayAnswer(launch, terminate,
                tasks.entrySet().stream().map(entry -> new ShapeCount(entry.getKey(), entry.getValue())).sorted(BY_SHAPE).toList(),
                gangs, constraints);
    }

    private static String rayCause(DeletionCause cause) {
        return switch (cause) {
            case IDLE -> "IDLE";
            case MAX_REPLICAS -> "MAX_NUM_NODE_PER_TYPE";
            case MAX_WORKERS -> "MAX_NUM_NODES";
            case STUCK_PENDING -> "STUCK_PENDING";
        };
    }

    private static String canonical(Resources shape) {
        try {
            return EventJson.mapper().writeValueAsString(shape);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
