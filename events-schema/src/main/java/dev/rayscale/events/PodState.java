package dev.rayscale.events;

/**
 * What Kubernetes says of the pod a Ray node runs in ({@code instance_id} on KubeRay). A Ray node
 * outlives its pod for up to a minute when the pod vanished without a graceful stop (fact A4.19): such
 * a node is no capacity, and the operator no longer counts its pod.
 */
public enum PodState {
    /** The pod exists and is not being deleted. */
    PRESENT,
    /** The pod is being deleted (it has a deletionTimestamp); the operator still counts it. */
    TERMINATING,
    /** No such pod exists. */
    GONE
}
