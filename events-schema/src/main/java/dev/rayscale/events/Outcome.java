package dev.rayscale.events;

/** How a decision ended. */
public enum Outcome {
    /** The RayCluster was patched. */
    APPLIED,
    /** Nothing needed doing: the cluster already matched, or this decision was applied before. */
    NOOP,
    /** Not applied: expired, older than a decision already applied, or based on values that changed. */
    STALE,
    /** The compare-and-set patch failed because someone else changed the RayCluster meanwhile. */
    CONFLICT,
    /** Not applied because it would break a safety rule, or every drain it needed was refused. */
    REJECTED,
    /** Not applied because of an error (API unavailable after retries, GCS unreachable, ...). */
    FAILED
}
