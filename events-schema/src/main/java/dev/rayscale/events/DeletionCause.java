package dev.rayscale.events;

/** Why a pod is to be removed. */
public enum DeletionCause {
    /** Ray reported its node idle for longer than the idle timeout. */
    IDLE,
    /** Its group has more replicas than its maxReplicas. */
    MAX_REPLICAS,
    /** The cluster has more workers than its cluster-wide cap. */
    MAX_WORKERS,
    /** It waited for a Kubernetes node longer than the policy's patience, and the policy replaces such pods. */
    STUCK_PENDING
}
