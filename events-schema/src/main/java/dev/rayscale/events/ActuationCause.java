package dev.rayscale.events;

/**
 * Why an actuation ended as it did: the kind, for dashboards and alerts; the result's reason says the rest. Each cause
 * belongs to one outcome.
 */
public enum ActuationCause {
    /** APPLIED: the RayCluster was patched as the decision said. */
    PATCHED(Outcome.APPLIED),
    /** APPLIED: the decision expired while its drains ran; only the pods Ray drained were removed. */
    DRAINED_PODS_REMOVED(Outcome.APPLIED),
    /** APPLIED in dry-run mode: nothing was patched or drained. */
    DRY_RUN(Outcome.APPLIED),
    /** NOOP: this very decision was applied before (a redelivery). */
    ALREADY_APPLIED(Outcome.NOOP),
    /** NOOP: the RayCluster already matches the decision. */
    ALREADY_MATCHES(Outcome.NOOP),
    /** STALE: the decision expired before it could be applied. */
    EXPIRED(Outcome.STALE),
    /** STALE: a decision from a newer snapshot was delivered with it, or was already applied. */
    SUPERSEDED(Outcome.STALE),
    /** STALE: the RayCluster no longer exists. */
    CLUSTER_DELETED(Outcome.STALE),
    /** STALE: the RayCluster was deleted and re-created under the same name since the snapshot. */
    CLUSTER_RECREATED(Outcome.STALE),
    /** STALE: the RayCluster no longer opts in to Rayscale. */
    OPTED_OUT(Outcome.STALE),
    /** STALE: a worker group the decision relied on changed since its snapshot. */
    CLUSTER_CHANGED(Outcome.STALE),
    /** CONFLICT: the compare-and-set patch failed: the RayCluster changed meanwhile. */
    CONCURRENT_CHANGE(Outcome.CONFLICT),
    /** REJECTED: every removal the decision asked for was refused by Ray (its nodes were busy). */
    DRAINS_REFUSED(Outcome.REJECTED),
    /**
     * REJECTED: the RayCluster turned Ray's in-tree autoscaler on since the snapshot; two autoscalers would write the same
     * fields, so Rayscale writes nothing until it is turned off again.
     */
    IN_TREE_AUTOSCALING(Outcome.REJECTED),
    /**
     * REJECTED: another writer (named in the reason) kept changing the replicas or workersToDelete Rayscale wrote; Rayscale
     * holds for a while rather than fight it.
     */
    OTHER_WRITER(Outcome.REJECTED),
    /** FAILED: the API server refused the patch (not a conflict: validation, permissions). */
    PATCH_REFUSED(Outcome.FAILED),
    /** FAILED: no patch attempt got a clear answer, and none was seen to have landed. */
    PATCH_UNANSWERED(Outcome.FAILED),
    /** FAILED: the Kubernetes API failed when the RayCluster was read. */
    API_FAILED(Outcome.FAILED);

    private final Outcome outcome;

    ActuationCause(Outcome outcome) {
        this.outcome = outcome;
    }

    /** The one outcome this cause ends in. */
    public Outcome outcome() {
        return outcome;
    }
}
