package dev.rayscale.collector.assembly;

import dev.rayscale.events.KubeRayGeneration;
import dev.rayscale.kuberay.NodeEnv;
import dev.rayscale.kuberay.RayLabels;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.PodStatus;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A Ray pod as the assembly reads it, and as the collector caches every pod of a fleet: its identity, the labels Ray
 * and KubeRay give it, its creation time, whether it is being deleted, its phase and why it is not running yet. A
 * fabric8 {@link Pod}, even stripped of its spec, is a tree of maps and lists of about 3 KB; tens of thousands of them
 * were the collector's heap. The values pods share (namespaces, cluster, group and node-type names, phases, reasons)
 * are interned, so each pod holds only its own name, resource version and creation time.
 *
 * @param clusterId     {@code namespace/cluster} from the {@code ray.io/cluster} label, or null without it
 * @param nodeType      the {@code ray.io/node-type} label: {@code head} or {@code worker}
 * @param replica       the multi-host replica the pod belongs to, or null
 * @param created       the creation time, or null if the API server gave none that parses
 * @param phase         the pod's phase, or null before the kubelet reports one
 * @param waitingReason why it is not running yet: its PodScheduled condition's reason when that is False
 *                      (Unschedulable), else its first waiting container's reason; null if neither
 * @param kubeRay       which KubeRay made the pod, by what its Ray container carries ({@link KubeRayGeneration}); null for a
 *                      pod with no container
 */
public record RayPod(String namespace, String name, String resourceVersion, String clusterId, String nodeType, String group,
        String replica, Instant created, boolean terminating, String phase, String waitingReason, KubeRayGeneration kubeRay) {

    /** @param replicaLabel the pod label naming a multi-host replica */
    public static RayPod of(Pod pod, String replicaLabel) {
        Map<String, String> labels = Objects.requireNonNullElse(pod.getMetadata().getLabels(), Map.of());
        String namespace = shared(pod.getMetadata().getNamespace());
        String cluster = labels.get(RayLabels.CLUSTER);
        PodStatus status = pod.getStatus();
        return new RayPod(namespace, pod.getMetadata().getName(), pod.getMetadata().getResourceVersion(),
                cluster == null ? null : shared(namespace + "/" + cluster), shared(labels.get(RayLabels.NODE_TYPE)),
                shared(labels.get(RayLabels.GROUP)), shared(labels.get(replicaLabel)), instant(pod.getMetadata().getCreationTimestamp()),
                pod.getMetadata().getDeletionTimestamp() != null, status == null ? null : shared(status.getPhase()),
                status == null ? null : shared(waitingReason(status)), generation(pod));
    }

    /**
     * The KubeRay that made the pod: its Ray container (the first) gets {@code RAY_CLOUD_INSTANCE_ID} from v1.1.0 and
     * {@code RAY_CLUSTER_NAMESPACE} from v1.6.0, on head and worker pods alike ({@code setContainerEnvVars}).
     */
    static KubeRayGeneration generation(Pod pod) {
        if (pod.getSpec() == null || pod.getSpec().getContainers() == null || pod.getSpec().getContainers().isEmpty()) {
            return null;
        }
        List<EnvVar> env = Objects.requireNonNullElse(pod.getSpec().getContainers().get(0).getEnv(), List.of());
        if (env.stream().noneMatch(variable -> NodeEnv.INSTANCE_ID.equals(variable.getName()))) {
            return KubeRayGeneration.BEFORE_1_1;
        }
        return env.stream().anyMatch(variable -> NodeEnv.CLUSTER_NAMESPACE.equals(variable.getName()))
                ? KubeRayGeneration.FROM_1_6 : KubeRayGeneration.FROM_1_1;
    }

    public boolean worker() {
        return "worker".equals(nodeType);
    }

    private static String waitingReason(PodStatus status) {
        for (PodCondition condition : Objects.requireNonNullElse(status.getConditions(), List.<PodCondition>of())) {
            if ("PodScheduled".equals(condition.getType()) && "False".equals(condition.getStatus())) {
                return condition.getReason();
            }
        }
        for (ContainerStatus container : Objects.requireNonNullElse(status.getContainerStatuses(), List.<ContainerStatus>of())) {
            if (container.getState() != null && container.getState().getWaiting() != null) {
                return container.getState().getWaiting().getReason();
            }
        }
        return null;
    }

    private static Instant instant(String timestamp) {
        try {
            return timestamp == null ? null : Instant.parse(timestamp);
        } catch (DateTimeParseException unreadable) {
            return null;
        }
    }

    /** One copy of a value many pods carry; the JVM drops an interned string no one refers to. */
    private static String shared(String value) {
        return value == null ? null : value.intern();
    }
}
