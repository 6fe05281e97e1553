package dev.rayscale.events;

/**
 * A pod the planner wants removed, and why.
 *
 * @param nodeId the Ray node to drain first; absent for a pod that never registered with Ray
 * @param idleDurationMs how long Ray reported the node idle (IDLE only)
 */
public record PodDeletion(String podName, String nodeId, DeletionCause cause, Long idleDurationMs) {

    public PodDeletion {
        Fields.requiredText(podName, "toDelete.podName");
        Fields.required(cause, "toDelete.cause");
    }
}
