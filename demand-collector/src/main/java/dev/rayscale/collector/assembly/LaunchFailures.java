package dev.rayscale.collector.assembly;

import io.ray.v1.RayCluster;
import io.ray.v1.rayclusterspec.WorkerGroupSpecs;
import io.ray.v1.rayclusterstatus.Conditions;
import java.util.List;
import java.util.Map;

/**
 * Which worker group's pods the KubeRay operator cannot create, and why, from the RayCluster's
 * {@code ReplicaFailure} condition (fact B9.34: reason {@code FailedCreateWorkerPod}, message the joined
 * error, e.g. {@code FailedCreateWorkerPod\npods "rc-gpu-worker-x7k2p" is forbidden: exceeded quota}).
 *
 * <p>The condition does not name the group. KubeRay's pod names do ({@code <cluster>-<group>-worker-}),
 * so a group named in the message is the one; otherwise it is the first group, in spec order, short of
 * pods: the operator walks the groups in that order and its first error ends the pass (fact B6.29), so
 * the groups after it were not even tried. This is a reading of the operator's code, not a field it sets.
 */
final class LaunchFailures {

    static final String CONDITION = "ReplicaFailure";
    static final String CREATE_FAILED = "FailedCreateWorkerPod";

    private LaunchFailures() {
    }

    /** The condition's message while it says worker pods cannot be created, else the empty string. */
    static String condition(RayCluster cluster) {
        if (cluster.getStatus() == null || cluster.getStatus().getConditions() == null) {
            return "";
        }
        for (Conditions condition : cluster.getStatus().getConditions()) {
            if (CONDITION.equals(condition.getType()) && condition.getStatus() == Conditions.Status.TRUE
                    && CREATE_FAILED.equals(condition.getReason())) {
                String message = condition.getMessage() == null ? "" : condition.getMessage().trim();
                return message.startsWith(CREATE_FAILED) ? message.substring(CREATE_FAILED.length()).trim() : message;
            }
        }
        return "";
    }

    /** The group whose pods cannot be created, with the reason; empty when pods can be created. */
    static Map<String, String> byGroup(RayCluster cluster, List<RayPod> pods) {
        String message = condition(cluster);
        List<WorkerGroupSpecs> groups = cluster.getSpec().getWorkerGroupSpecs();
        if (message.isEmpty() || groups == null) {
            return Map.of();
        }
        for (WorkerGroupSpecs group : groups) {
            if (message.contains(cluster.getMetadata().getName() + "-" + group.getGroupName() + "-worker")) {
                return Map.of(group.getGroupName(), message);
            }
        }
        for (WorkerGroupSpecs group : groups) {
            if (!Boolean.TRUE.equals(group.getSuspend()) && existingPods(pods, group.getGroupName()) < desiredPods(group)) {
                return Map.of(group.getGroupName(), message);
            }
        }
        return Map.of();
    }

    private static long existingPods(List<RayPod> pods, String group) {
        return pods.stream().filter(pod -> group.equals(pod.group())).count();
    }

    /** {@code clamp(replicas, min, max) x numOfHosts}, as the operator computes it (fact B6.24). */
    private static long desiredPods(WorkerGroupSpecs group) {
        int min = group.getMinReplicas() == null ? 0 : group.getMinReplicas();
        int max = group.getMaxReplicas() == null ? Integer.MAX_VALUE : group.getMaxReplicas();
        int replicas = group.getReplicas() == null ? min : Math.max(min, Math.min(max, group.getReplicas()));
        return (long) replicas * (group.getNumOfHosts() == null || group.getNumOfHosts() < 1 ? 1 : group.getNumOfHosts());
    }
}
