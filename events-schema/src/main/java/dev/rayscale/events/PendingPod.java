package dev.rayscale.events;

import java.time.Instant;

/**
 * A worker pod that exists but has no Ray node yet: capacity on its way, which the planner counts
 * and never requests twice. A pod waiting for a node autoscaler to add a Kubernetes node is
 * {@code Pending} with reason {@code Unschedulable}.
 *
 * @param replicaName the multi-host replica the pod belongs to; absent for single-host groups
 * @param phase the pod's {@code status.phase} ({@code Pending}, {@code Running}, ...)
 * @param reason why it is not running yet, e.g. the {@code PodScheduled} condition's reason
 * @param createdAt {@code metadata.creationTimestamp}; its age is measured against the snapshot's observedAt
 */
public record PendingPod(String podName, String replicaName, String group, String phase, String reason, Instant createdAt) {

    public PendingPod {
        Fields.requiredText(podName, "pendingPods.podName");
        Fields.requiredText(group, "pendingPods.group");
        Fields.requiredText(phase, "pendingPods.phase");
        Fields.required(createdAt, "pendingPods.createdAt");
    }
}
