package dev.rayscale.events;

/** Why demand could not be placed. */
public enum InfeasibleReason {
    /** No worker group (nor the head) has nodes big enough, or with the resources asked for. */
    NO_GROUP_FITS,
    /** No node can satisfy the label selectors. */
    LABELS_UNMATCHED,
    /** Groups that could hold it are at their maxReplicas. */
    MAX_REPLICAS,
    /** The cluster-wide worker cap is reached. */
    MAX_WORKERS,
    /** The groups that could hold it are suspended. */
    SUSPENDED,
    /** The groups that could hold it cannot get pods: the operator's pod creation fails (quota, admission). */
    LAUNCH_FAILED
}
