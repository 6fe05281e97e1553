package dev.rayscale.actuator;

import dev.rayscale.actuator.core.AppliedMark;
import dev.rayscale.actuator.core.ObservedCluster;
import dev.rayscale.actuator.core.OtherWrite;
import dev.rayscale.actuator.core.WrittenGroups;
import dev.rayscale.events.Annotations;
import dev.rayscale.kuberay.RayLabels;
import io.fabric8.kubernetes.api.model.ManagedFieldsEntry;
import io.fabric8.kubernetes.api.model.Pod;
import io.ray.v1.RayCluster;
import io.ray.v1.rayclusterspec.WorkerGroupSpecs;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Turns what the Kubernetes API returned into the actuator's observation of a cluster. */
final class Observations {

    static final String DRY_RUN_ANNOTATION = "rayscale.dev/dry-run";
    private static final int MANAGER_SHOWN = 128;

    private Observations() {
    }

    static ObservedCluster of(RayCluster cluster, List<Pod> pods, String replicaLabel) {
        Map<String, String> annotations = cluster.getMetadata().getAnnotations();
        List<ObservedCluster.ObservedGroup> groups = new ArrayList<>();
        List<WorkerGroupSpecs> specs = cluster.getSpec().getWorkerGroupSpecs() == null ? List.of() : cluster.getSpec().getWorkerGroupSpecs();
        for (WorkerGroupSpecs spec : specs) {
            boolean listed = spec.getScaleStrategy() != null && spec.getScaleStrategy().getWorkersToDelete() != null;
            groups.add(new ObservedCluster.ObservedGroup(spec.getGroupName(), spec.getReplicas(),
                    spec.getMinReplicas() == null ? 0 : spec.getMinReplicas(),
                    spec.getMaxReplicas() == null ? Integer.MAX_VALUE : spec.getMaxReplicas(),
                    spec.getNumOfHosts() == null || spec.getNumOfHosts() < 1 ? 1 : spec.getNumOfHosts(),
                    listed ? spec.getScaleStrategy().getWorkersToDelete() : List.of(), listed));
        }
        return new ObservedCluster(cluster.getMetadata().getNamespace(), cluster.getMetadata().getName(), cluster.getMetadata().getUid(),
                cluster.getMetadata().getResourceVersion(), cluster.getMetadata().getGeneration(), annotations != null,
                Annotations.optedIn(annotations), Boolean.TRUE.equals(cluster.getSpec().getEnableInTreeAutoscaling()),
                AppliedMark.of(annotations), annotations != null && "true".equalsIgnoreCase(annotations.get(DRY_RUN_ANNOTATION)),
                groups, pods(pods, replicaLabel), null, otherWrite(cluster, groups));
    }

    /** Replicas or workersToDelete as someone other than Rayscale changed them since Rayscale last wrote them, or null. */
    private static OtherWrite otherWrite(RayCluster cluster, List<ObservedCluster.ObservedGroup> groups) {
        Map<String, String> annotations = cluster.getMetadata().getAnnotations();
        List<String> changed = WrittenGroups.changedSince(annotations == null ? null : annotations.get(WrittenGroups.ANNOTATION), groups);
        return changed.isEmpty() ? null : new OtherWrite(workerGroupsManager(cluster), changed);
    }

    /**
     * Who owns {@code spec.workerGroupSpecs} by the API server's {@code managedFields}, if not Rayscale. The list is atomic
     * in KubeRay's CRD (no list type), so its last writer owns it whole; of several owners (a CRD that made it a map), the
     * newest. A manager's name is whatever its client sent, so it is cut to a readable length.
     */
    static String workerGroupsManager(RayCluster cluster) {
        List<ManagedFieldsEntry> entries = cluster.getMetadata().getManagedFields();
        String newest = null;
        String newestTime = "";
        for (ManagedFieldsEntry entry : entries == null ? List.<ManagedFieldsEntry>of() : entries) {
            String time = entry.getTime() == null ? "" : entry.getTime();
            if (ownsWorkerGroups(entry) && !ClusterApi.FIELD_MANAGER.equals(entry.getManager()) && time.compareTo(newestTime) >= 0) {
                newest = entry.getManager();
                newestTime = time;
            }
        }
        if (newest == null || newest.isBlank()) {
            return "an unnamed writer";
        }
        return newest.length() > MANAGER_SHOWN ? newest.substring(0, MANAGER_SHOWN) + "..." : newest;
    }

    private static boolean ownsWorkerGroups(ManagedFieldsEntry entry) {
        boolean main = entry.getSubresource() == null || entry.getSubresource().isEmpty();
        return main && entry.getFieldsV1() != null && entry.getFieldsV1().getAdditionalProperties().get("f:spec") instanceof Map<?, ?> spec
                && spec.containsKey("f:workerGroupSpecs");
    }

    /** The pods by name, each with its group, its replica (the label's value, or its own name) and its phase. */
    static Map<String, ObservedCluster.ObservedPod> pods(List<Pod> pods, String replicaLabel) {
        Map<String, ObservedCluster.ObservedPod> observed = new LinkedHashMap<>();
        for (Pod pod : pods) {
            Map<String, String> labels = pod.getMetadata().getLabels() == null ? Map.of() : pod.getMetadata().getLabels();
            String name = pod.getMetadata().getName();
            observed.put(name, new ObservedCluster.ObservedPod(name, labels.get(RayLabels.GROUP), labels.getOrDefault(replicaLabel, name),
                    pod.getStatus() == null ? null : pod.getStatus().getPhase(), pod.getMetadata().getDeletionTimestamp() != null));
        }
        return observed;
    }
}
