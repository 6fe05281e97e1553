package dev.rayscale.events;

import com.fasterxml.jackson.annotation.JsonIgnore;
import java.util.List;
import java.util.Map;

/**
 * One Ray node as the GCS reports it.
 *
 * @param nodeId the Ray node id, hex
 * @param podName the GCS {@code instance_id}, which on KubeRay is the pod name
 * @param group the GCS {@code ray_node_type_name}: the worker group's name, or the head group's
 * @param replicaName the multi-host replica the pod belongs to (KubeRay's replica label); absent for
 *     single-host groups, whose every pod is a replica of its own
 * @param total the node's total resources
 * @param available the part of {@code total} not in use
 * @param idleDurationMs how long the node has been idle, 0 when busy
 * @param activity what keeps the node busy, in Ray's words (may be empty)
 * @param podState what Kubernetes says of its pod; absent when the node names no pod or the producer
 *     did not say (then read as {@link PodState#PRESENT})
 */
public record RayNode(
        String nodeId,
        String podName,
        String replicaName,
        String group,
        NodeStatus status,
        Resources total,
        Resources available,
        long idleDurationMs,
        Map<String, String> labels,
        String ipAddress,
        List<String> activity,
        PodState podState) {

    public RayNode {
        Fields.requiredText(nodeId, "nodes.nodeId");
        Fields.requiredText(group, "nodes.group");
        Fields.required(status, "nodes.status");
        total = total == null ? Resources.NONE : total;
        available = available == null ? Resources.NONE : available;
        Fields.notNegative(idleDurationMs, "nodes.idleDurationMs");
        labels = Fields.labels(labels);
        activity = Fields.list(activity);
    }

    public RayNode(String nodeId, String podName, String replicaName, String group, NodeStatus status, Resources total,
            Resources available, long idleDurationMs, Map<String, String> labels, String ipAddress, List<String> activity) {
        this(nodeId, podName, replicaName, group, status, total, available, idleDurationMs, labels, ipAddress, activity, null);
    }

    /** True unless Kubernetes said the pod is being deleted or gone: only then can the node hold work for long. */
    @JsonIgnore
    public boolean podPresent() {
        return podState == null || podState == PodState.PRESENT;
    }
}
