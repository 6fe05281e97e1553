package dev.rayscale.events;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * Capacity on its way for one group, which the actuator reports to the GCS so that {@code ray status}
 * shows it.
 *
 * @param requested Ray nodes this decision asks for beyond what exists
 * @param pending Ray nodes whose pods exist but have not registered yet
 * @param failed Ray nodes asked for whose pods the operator cannot create
 * @param failure why those pods cannot be created (the RayCluster's ReplicaFailure message); present when {@code failed > 0}
 */
public record PendingLaunch(String group, int requested, int pending, @JsonInclude(JsonInclude.Include.NON_DEFAULT) Integer failed,
        String failure) {

    public PendingLaunch {
        Fields.requiredText(group, "launches.group");
        Fields.notNegative(requested, "launches.requested");
        Fields.notNegative(pending, "launches.pending");
        failed = failed == null ? 0 : failed;
        Fields.notNegative(failed, "launches.failed");
    }

    public PendingLaunch(String group, int requested, int pending) {
        this(group, requested, pending, 0, null);
    }
}
