package dev.rayscale.events;

/** Why an actuation ended as it did: the kind, for dashboards and alerts; the result's reason says the rest. */
public enum ActuationCause {
    /** APPLIED: the RayCluster was patched as the decision said. */
    PATCHED,
    /** APPLIED: the decision expired while its drains ran; only the pods Ray drained were removed. */
    DRAINED_PODS_REMOVED,
    /** APPLIED in dry-run mode: nothing was patched or drained. */
    DRY_RUN,
    /** NOOP: this very decision was applied before (a redelivery). */
    ALREADY_APPLIED,
    /** NOOP: the RayCluster already matches the decision. */
    ALREADY_MATCHES,
    /** STALE: the decision expired before it could be applied. */
    EXPIRED,
    /** STALE: a decision from a newer snapshot was delivered with it, or was already applied. */
    SUPERSEDED,
    /** STALE: the RayCluster no longer exists. */
    CLUSTER_DELETED,
    /** STALE: the RayCluster was deleted and re-created under the same name since the snapshot. */
    CLUSTER_RECREATED,
    /** STALE: the RayCluster no longer opts in to Rayscale. */
    OPTED_OUT,
    /** STALE: a worker group the decision relied on changed since its snapshot. */
    CLUSTER_CHANGED,
    /** CONFLICT: the compare-and-set patch failed: the RayCluster changed meanwhile. */
    CONCURRENT_CHANGE,
    /** REJECTED: every removal the decision asked for was refused by Ray (its nodes were busy). */
    DRAINS_REFUSED,
    /** FAILED: the API server refused the patch (not a conflict: validation, permissions). */
    PATCH_REFUSED,
    /** FAILED: no patch attempt got a clear answer, and none was seen to have landed. */
    PATCH_UNANSWERED,
    /** FAILED: the Kubernetes API failed when the RayCluster was read. */
    API_FAILED
}
