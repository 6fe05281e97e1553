package dev.rayscale.events;

/** A Ray node's state as the GCS reports it ({@code ray.rpc.autoscaler.NodeStatus}). */
public enum NodeStatus {
    /** Up and holding work. */
    RUNNING,
    /** Up with nothing running; see the idle duration. */
    IDLE,
    /** Being drained: takes no new work. */
    DRAINING,
    /** Gone from the cluster. */
    DEAD
}
