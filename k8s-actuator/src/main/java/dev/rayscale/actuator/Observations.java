package dev.rayscale.actuator;

import dev.rayscale.actuator.core.AppliedMark;
import dev.rayscale.actuator.core.ObservedCluster;
import dev.rayscale.events.Annotations;
import dev.rayscale.kuberay.RayLabels;
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
                groups, pods(pods, replicaLabel), null);
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
