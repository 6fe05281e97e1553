package dev.rayscale.events;

import com.fasterxml.jackson.annotation.JsonIgnore;
import java.time.Instant;
import java.util.List;

/**
 * What the actuator did with one decision. Every decision gets exactly one result per delivery.
 *
 * @param decisionId the decision this is about
 * @param snapshotId the snapshot that decision was computed from, completing the audit chain
 * @param reason why the outcome is what it is, for people
 * @param cause why, as data: one of the outcome's causes; absent in results written before it was recorded
 * @param resourceVersionBefore the RayCluster {@code resourceVersion} read before acting (absent if not read)
 * @param resourceVersionAfter the {@code resourceVersion} after the patch (APPLIED only)
 * @param groups what was done per worker group (empty unless the decision was acted on)
 * @param receivedAt when the actuator took the decision from the topic
 * @param completedAt when the outcome was settled
 * @param attempts how many patch attempts were made (0 if none)
 * @param dryRun true if the actuator ran in dry-run mode: nothing was patched or drained
 */
public record ActuationResult(
        int schemaVersion,
        String id,
        ClusterRef cluster,
        String decisionId,
        String snapshotId,
        Outcome outcome,
        String reason,
        ActuationCause cause,
        String resourceVersionBefore,
        String resourceVersionAfter,
        List<GroupActuation> groups,
        Instant receivedAt,
        Instant completedAt,
        int attempts,
        boolean dryRun) implements RayscaleEvent {

    public static final int SCHEMA_VERSION = 1;

    public ActuationResult {
        Fields.requiredText(id, "id");
        Fields.required(cluster, "cluster");
        Fields.requiredText(decisionId, "decisionId");
        Fields.requiredText(snapshotId, "snapshotId");
        Fields.required(outcome, "outcome");
        Fields.requiredText(reason, "reason");
        if (cause != null && cause.outcome() != outcome) {
            throw new IllegalArgumentException("cause " + cause + " belongs to outcome " + cause.outcome() + ", not " + outcome);
        }
        groups = Fields.list(groups);
        Fields.required(receivedAt, "receivedAt");
        Fields.required(completedAt, "completedAt");
        Fields.notNegative(attempts, "attempts");
    }

    @Override
    @JsonIgnore
    public Instant time() {
        return completedAt;
    }
}
