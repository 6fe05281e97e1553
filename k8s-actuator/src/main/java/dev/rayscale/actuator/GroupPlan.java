package dev.rayscale.actuator;

import dev.rayscale.events.DeletionCause;
import dev.rayscale.events.DrainRejection;
import dev.rayscale.events.GroupActuation;
import dev.rayscale.events.GroupTarget;
import dev.rayscale.events.PodDeletion;
import io.fabric8.kubernetes.api.model.Pod;
import io.ray.v1.rayclusterspec.WorkerGroupSpecs;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * What one worker group's patch will be. Pods are named for deletion only if they still exist, Ray
 * accepted their drain (or they never became Ray nodes and are still waiting), and — for a multi-host
 * replica — the same holds for every pod of the replica. {@code replicas} drops by exactly the
 * replicas named, in the same patch, so that the operator never picks pods of its own; a pod replaced
 * because it waited too long keeps its replica. No new names are added while the operator has not
 * finished the previous ones; once it has, the old names are cleared.
 */
final class GroupPlan {

    final int index;
    final String name;
    final WorkerGroupSpecs spec;
    final GroupTarget target;
    final boolean previousInProgress;
    /** Deletions that need Ray to accept a drain first. */
    final List<PodDeletion> toDrain = new ArrayList<>();
    private final List<PodDeletion> accepted = new ArrayList<>();
    private final List<DrainRejection> rejected = new ArrayList<>();
    private final Map<String, String> replicaOfPod;

    private GroupPlan(int index, WorkerGroupSpecs spec, GroupTarget target, Map<String, Pod> pods, String replicaLabel) {
        this.index = index;
        this.name = spec.getGroupName();
        this.spec = spec;
        this.target = target;
        List<String> previous = Patches.workersToDelete(spec);
        this.previousInProgress = previous.stream().anyMatch(pods::containsKey);
        this.replicaOfPod = new LinkedHashMap<>();
        for (PodDeletion deletion : target.toDelete()) {
            Pod pod = pods.get(deletion.podName());
            replicaOfPod.put(deletion.podName(), replicaName(pod, deletion.podName(), replicaLabel));
            sort(deletion, pod);
        }
    }

    static GroupPlan of(int index, WorkerGroupSpecs spec, GroupTarget target, Map<String, Pod> pods, String replicaLabel) {
        return new GroupPlan(index, spec, target, pods, replicaLabel);
    }

    private void sort(PodDeletion deletion, Pod pod) {
        if (previousInProgress) {
            rejected.add(new DrainRejection(deletion.podName(), "the operator is still deleting this group's previous workersToDelete"));
        } else if (pod == null || pod.getMetadata().getDeletionTimestamp() != null) {
            rejected.add(new DrainRejection(deletion.podName(), "the pod no longer exists"));
        } else if (deletion.nodeId() != null) {
            toDrain.add(deletion);
        } else if (!"Pending".equals(pod.getStatus() == null ? null : pod.getStatus().getPhase())) {
            rejected.add(new DrainRejection(deletion.podName(), "the pod left Pending since the snapshot (now "
                    + pod.getStatus().getPhase() + ") and may be running work"));
        } else {
            accepted.add(deletion);
        }
    }

    /** Records Ray's answers to the drains; {@code refusals} maps a pod to why its drain was not accepted. */
    void settle(Map<String, String> refusals) {
        for (PodDeletion deletion : toDrain) {
            String refusal = refusals.get(deletion.podName());
            if (refusal == null) {
                accepted.add(deletion);
            } else {
                rejected.add(new DrainRejection(deletion.podName(), refusal));
            }
        }
        keepWholeReplicasOnly();
    }

    /** A multi-host replica goes whole or not at all: one refused host keeps every host of the replica. */
    private void keepWholeReplicasOnly() {
        Set<String> refusedReplicas = new LinkedHashSet<>();
        rejected.forEach(refusal -> refusedReplicas.add(replicaOfPod.get(refusal.podName())));
        accepted.removeIf(deletion -> {
            if (refusedReplicas.contains(replicaOfPod.get(deletion.podName()))) {
                rejected.add(new DrainRejection(deletion.podName(), "another host of its multi-host replica was kept"));
                return true;
            }
            return false;
        });
    }

    int replicasBefore() {
        return spec.getReplicas() == null ? 0 : spec.getReplicas();
    }

    int replicasAfter() {
        int shortfall = removedReplicas(target.toDelete()) - removedReplicas(accepted);
        int min = spec.getMinReplicas() == null ? 0 : spec.getMinReplicas();
        int max = spec.getMaxReplicas() == null ? Integer.MAX_VALUE : spec.getMaxReplicas();
        return Math.max(min, Math.min(max, target.targetReplicas() + shortfall));
    }

    List<String> workersToDeleteAfter() {
        return previousInProgress ? Patches.workersToDelete(spec) : accepted.stream().map(PodDeletion::podName).toList();
    }

    boolean changes() {
        return replicasAfter() != replicasBefore() || !Objects.equals(workersToDeleteAfter(), Patches.workersToDelete(spec));
    }

    List<DrainRejection> rejected() {
        return List.copyOf(rejected);
    }

    List<String> acceptedPods() {
        return accepted.stream().map(PodDeletion::podName).toList();
    }

    GroupActuation result(boolean applied) {
        int after = applied ? replicasAfter() : replicasBefore();
        return new GroupActuation(name, replicasBefore(), after, applied ? acceptedPods() : List.of(), rejected);
    }

    /** Replicas a list of deletions removes: replicas (not pods), and never for a pod that is only replaced. */
    private int removedReplicas(List<PodDeletion> deletions) {
        Set<String> replicas = new LinkedHashSet<>();
        for (PodDeletion deletion : deletions) {
            if (deletion.cause() != DeletionCause.STUCK_PENDING) {
                replicas.add(replicaOfPod.get(deletion.podName()));
            }
        }
        return replicas.size();
    }

    private static String replicaName(Pod pod, String podName, String replicaLabel) {
        if (pod == null || pod.getMetadata().getLabels() == null) {
            return podName;
        }
        return pod.getMetadata().getLabels().getOrDefault(replicaLabel, podName);
    }
}
