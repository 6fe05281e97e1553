package dev.rayscale.collector.assembly;

import io.ray.v1.RayCluster;
import io.ray.v1.rayclusterspec.WorkerGroupSpecs;
import io.ray.v1.rayclusterstatus.Conditions;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Which worker group's pods the KubeRay operator cannot create, and why, from the RayCluster's
 * {@code ReplicaFailure} condition (fact B9.34: reason {@code FailedCreateWorkerPod}, message the joined
 * error, e.g. {@code FailedCreateWorkerPod\npods "rc-gpu-worker-x7k2p" is forbidden: exceeded quota}).
 *
 * <p>The condition does not name the group. The pod name in its message does: KubeRay's worker pods are named by
 * {@code generateName}, from 1.2 {@code <cluster>-<group>} cut to its first 50 characters, then {@code -worker-}
 * ({@code utils.PodGenerateName}); before, {@code <cluster>-worker-<group>-} cut to its last 50, a leading digit or
 * punctuation replaced by {@code r} ({@code utils.CheckName}); both lower-cased (fact D57). A group one of whose
 * prefixes is in the message is the one; when long names make several groups share a prefix, or none is named, it is
 * the first group, in spec order, short of pods among those: the operator walks the groups in that order and its first
 * error ends the pass (fact B6.29), so the groups after it were not even tried. This is a reading of the operator's code,
 * not a field it sets.
 */
final class LaunchFailures {

    static final String CONDITION = "ReplicaFailure";
    static final String CREATE_FAILED = "FailedCreateWorkerPod";
    /** How much of a pod name's prefix KubeRay keeps ({@code maxPrefixLength}, {@code CheckName}'s 50). */
    private static final int MAX_PREFIX = 50;

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
        String named = message.toLowerCase(Locale.ROOT);
        List<WorkerGroupSpecs> candidates = groups.stream()
                .filter(group -> podNamePrefixes(cluster.getMetadata().getName(), group.getGroupName()).stream().anyMatch(named::contains))
                .toList();
        if (candidates.size() == 1) {
            return Map.of(candidates.get(0).getGroupName(), message);
        }
        for (WorkerGroupSpecs group : candidates.isEmpty() ? groups : candidates) {
            if (!Boolean.TRUE.equals(group.getSuspend()) && existingPods(pods, group.getGroupName()) < desiredPods(group)) {
                return Map.of(group.getGroupName(), message);
            }
        }
        return Map.of();
    }

    /** The prefixes of the worker pod names the KubeRay releases give a group's pods (fact D57), lower-cased. */
    static List<String> podNamePrefixes(String cluster, String group) {
        String groupFirst = cluster + "-" + group;
        String current = groupFirst.substring(0, Math.min(groupFirst.length(), MAX_PREFIX)) + "-worker-";
        String workerFirst = cluster + "-worker-" + group + "-";
        String older = workerFirst.substring(Math.max(0, workerFirst.length() - MAX_PREFIX));
        if (!older.isEmpty() && !Character.isLetter(older.charAt(0))) {
            older = "r" + older.substring(1);
        }
        return List.of(current.toLowerCase(Locale.ROOT), older.toLowerCase(Locale.ROOT));
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
