package dev.rayscale.testsupport;

import dev.rayscale.kuberay.NodeEnv;
import dev.rayscale.kuberay.RayLabels;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.PodTemplateSpecBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.ray.v1.RayCluster;
import io.ray.v1.RayClusterSpec;
import io.ray.v1.rayclusterspec.HeadGroupSpec;
import io.ray.v1.rayclusterspec.WorkerGroupSpecs;
import io.ray.v1.rayclusterspec.workergroupspecs.ScaleStrategy;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** RayCluster and pod fixtures shaped as KubeRay writes them. */
public final class RayClusters {

    public static final String OPT_IN = "rayscale.dev/autoscaling";

    private RayClusters() {
    }

    /**
     * The reference walk-through: a head with {@code num-cpus: "0"} and one worker group of 1 CPU /
     * 1 GiB pods, min 0, max 20, opted in to Rayscale.
     */
    public static RayCluster walkthrough(String namespace, String name) {
        RayCluster cluster = new RayCluster();
        cluster.setMetadata(new ObjectMetaBuilder().withNamespace(namespace).withName(name)
                .addToAnnotations(OPT_IN, "enabled").build());
        RayClusterSpec spec = new RayClusterSpec();
        spec.setRayVersion("2.41.0");
        spec.setEnableInTreeAutoscaling(false);
        HeadGroupSpec head = new HeadGroupSpec();
        head.setRayStartParams(Map.of("num-cpus", "0"));
        head.setTemplate(template(Map.of("cpu", "1", "memory", "2Gi")));
        spec.setHeadGroupSpec(head);
        spec.setWorkerGroupSpecs(new ArrayList<>(List.of(group("small-group", 0, 0, 20, Map.of(), Map.of("cpu", "1", "memory", "1Gi")))));
        cluster.setSpec(spec);
        return cluster;
    }

    public static WorkerGroupSpecs group(String name, int replicas, int min, int max, Map<String, String> rayStartParams,
            Map<String, String> limits) {
        WorkerGroupSpecs group = new WorkerGroupSpecs();
        group.setGroupName(name);
        group.setReplicas(replicas);
        group.setMinReplicas(min);
        group.setMaxReplicas(max);
        group.setNumOfHosts(1);
        group.setRayStartParams(new HashMap<>(rayStartParams));
        group.setTemplate(template(limits));
        group.setScaleStrategy(new ScaleStrategy());
        return group;
    }

    public static PodTemplateSpec template(Map<String, String> limits) {
        Map<String, Quantity> quantities = new HashMap<>();
        limits.forEach((resource, amount) -> quantities.put(resource, new Quantity(amount)));
        return new PodTemplateSpecBuilder().withNewSpec().addNewContainer().withName("ray").withImage("rayproject/ray:2.41.0")
                .withNewResources().withLimits(quantities).withRequests(quantities).endResources().endContainer().endSpec().build();
    }

    /** A worker pod of the cluster and group, as the current KubeRay writes it. */
    public static Pod workerPod(RayCluster cluster, String group, String podName, String phase) {
        return pod(cluster, group, "worker", podName, phase);
    }

    /** The cluster's head pod, as the current KubeRay writes it. */
    public static Pod headPod(RayCluster cluster, String podName) {
        return pod(cluster, "headgroup", "head", podName, "Running");
    }

    private static Pod pod(RayCluster cluster, String group, String nodeType, String podName, String phase) {
        return new PodBuilder().withNewMetadata()
                .withName(podName).withNamespace(cluster.getMetadata().getNamespace())
                .withCreationTimestamp(Instant.now().toString())
                .addToLabels(RayLabels.CLUSTER, cluster.getMetadata().getName())
                .addToLabels(RayLabels.GROUP, group)
                .addToLabels(RayLabels.NODE_TYPE, nodeType)
                .endMetadata()
                .withNewSpec().addNewContainer().withName("ray").withImage("rayproject/ray:2.41.0")
                .withEnv(NodeEnv.written(true, true)).endContainer().endSpec()
                .withNewStatus().withPhase(phase).endStatus()
                .build();
    }

    /** A field of the spec no KubeRay this model knows has, as a newer KubeRay's RayCluster may carry ({@link #createAsOfANewerKubeRay}). */
    public static final Map<String, Object> NEWER_FIELD = Map.of("aFieldOfANewerKubeRay", Map.of("enabled", true));
    /** Autoscaler options with an upscaling mode no KubeRay this model knows has. */
    public static final Map<String, Object> NEWER_AUTOSCALER_OPTIONS = Map.of("upscalingMode", "AModeOfANewerKubeRay");

    /**
     * Creates {@code cluster} as a newer KubeRay would have written it: with {@link #NEWER_FIELD} in its spec and
     * {@link #NEWER_AUTOSCALER_OPTIONS}, which the typed model cannot carry (so it is written untyped).
     */
    public static void createAsOfANewerKubeRay(KubernetesClient client, RayCluster cluster) {
        KubernetesSerialization json = client.getKubernetesSerialization();
        @SuppressWarnings("unchecked")
        Map<String, Object> written = json.convertValue(cluster, Map.class);
        @SuppressWarnings("unchecked")
        Map<String, Object> spec = (Map<String, Object>) written.get("spec");
        spec.putAll(NEWER_FIELD);
        spec.put("autoscalerOptions", NEWER_AUTOSCALER_OPTIONS);
        client.genericKubernetesResources("ray.io/v1", "RayCluster").inNamespace(cluster.getMetadata().getNamespace())
                .resource(json.convertValue(written, GenericKubernetesResource.class)).create();
    }
}
