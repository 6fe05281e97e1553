package dev.rayscale.sim;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.ray.v1.RayCluster;
import io.ray.v1.RayClusterSpec;
import io.ray.v1.rayclusterspec.WorkerGroupSpecs;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The KubeRay RayService controller, as far as it writes its active RayCluster ({@code rayservice_controller.go} at
 * kuberay {@code feeaf72f}, {@code reconcileRayCluster}):
 * <ul>
 *   <li>the RayCluster is built from the RayService ({@code constructRayClusterForRayService}): its spec is
 *       {@code rayClusterConfig}, its labels and annotations the RayService's, all of them, plus
 *       {@code ray.io/originated-from-crd: RayService}, {@code ray.io/originated-from-cr-name} and
 *       {@code ray.io/num-worker-groups}; the RayService is its controller owner; the RayService's status names it the
 *       active cluster ({@code status.activeServiceStatus.rayClusterName});</li>
 *   <li>when worker groups are appended to {@code rayClusterConfig} ({@code shouldUpdateCluster}: the hash of the first
 *       {@code ray.io/num-worker-groups} groups unchanged), the active cluster is rebuilt in place
 *       ({@code modifyRayCluster}): its whole spec, replicas and workersToDelete included, becomes {@code rayClusterConfig}
 *       again, and its labels and annotations the RayService's ("We should not reconstruct the cluster to update it. This
 *       will cause issues if autoscaler is enabled."). Nothing is copied back from the live cluster.</li>
 * </ul>
 * Not modelled: a rebuild on an operator upgrade (the same code path), and the zero-downtime upgrade to a new cluster that
 * other spec changes start.
 */
final class RayServiceController {

    static final ResourceDefinitionContext RAY_SERVICES = new ResourceDefinitionContext.Builder().withGroup("ray.io").withVersion("v1")
            .withKind("RayService").withPlural("rayservices").withNamespaced(true).build();
    private static final String NUM_WORKER_GROUPS = "ray.io/num-worker-groups";

    private final KubernetesClient client;
    private final KubernetesSerialization json;
    private final String namespace;
    private final String name;
    private final String clusterName;
    private final Consumer<String> happened;

    RayServiceController(KubernetesClient client, String namespace, String name, String clusterName, Consumer<String> happened) {
        this.client = client;
        this.json = client.getKubernetesSerialization();
        this.namespace = namespace;
        this.name = name;
        this.clusterName = clusterName;
        this.happened = happened;
    }

    /**
     * Creates the RayService whose {@code rayClusterConfig} is {@code cluster}'s spec and whose metadata carries its
     * annotations (where a RayService's owner puts them), then returns {@code cluster} as the controller builds it.
     */
    RayCluster create(RayCluster cluster) {
        GenericKubernetesResource created = OwnerResources.create(client, RAY_SERVICES, namespace, name, cluster.getMetadata().getAnnotations(),
                Map.of("rayClusterConfig", json.convertValue(cluster.getSpec(), Map.class)));
        created.setAdditionalProperty("status", Map.of("activeServiceStatus", Map.of("rayClusterName", clusterName)));
        created = client.genericKubernetesResources(RAY_SERVICES).inNamespace(namespace).resource(created).updateStatus();
        return built(cluster, created, cluster.getSpec());
    }

    /** The team appends {@code group} to the RayService's {@code rayClusterConfig}. */
    void appendGroup(Workload.Group group) {
        happened.accept("the RayService " + name + " gets a worker group appended: " + group.name());
        Edits.retryingConflicts(client.genericKubernetesResources(RAY_SERVICES).inNamespace(namespace).withName(name), service -> {
            RayClusterSpec config = config(service);
            List<WorkerGroupSpecs> groups = new ArrayList<>(config.getWorkerGroupSpecs());
            groups.add(ClusterSimulator.workerGroup(group));
            config.setWorkerGroupSpecs(groups);
            service.setAdditionalProperty("spec", Map.of("rayClusterConfig", json.convertValue(config, Map.class)));
            return service;
        });
    }

    /** One reconcile: the active cluster rebuilt from {@code rayClusterConfig} if worker groups were appended to it. */
    void reconcile() {
        GenericKubernetesResource service = client.genericKubernetesResources(RAY_SERVICES).inNamespace(namespace).withName(name).get();
        RayCluster cluster = client.resources(RayCluster.class).inNamespace(namespace).withName(clusterName).get();
        if (service == null || cluster == null) {
            return;
        }
        RayClusterSpec config = config(service);
        String counted = cluster.getMetadata().getAnnotations() == null ? null : cluster.getMetadata().getAnnotations().get(NUM_WORKER_GROUPS);
        if (counted == null || config.getWorkerGroupSpecs().size() <= Integer.parseInt(counted)) {
            return;
        }
        RayCluster rebuilt = built(cluster, service, config);
        happened.accept("the RayService controller rebuilds " + clusterName + " from rayClusterConfig (worker groups appended): replicas "
                + config.getWorkerGroupSpecs().stream().map(group -> group.getGroupName() + "=" + group.getReplicas()).toList());
        Edits.retryingConflicts(client.resources(RayCluster.class).inNamespace(namespace).withName(clusterName), live -> {
            live.setSpec(rebuilt.getSpec());
            live.getMetadata().setLabels(rebuilt.getMetadata().getLabels());
            live.getMetadata().setAnnotations(rebuilt.getMetadata().getAnnotations());
            return live;
        });
    }

    /** {@code cluster} as {@code constructRayClusterForRayService} builds it from {@code service}, with spec {@code config}. */
    private RayCluster built(RayCluster cluster, GenericKubernetesResource service, RayClusterSpec config) {
        Map<String, String> labels = new LinkedHashMap<>(service.getMetadata().getLabels() == null ? Map.of() : service.getMetadata().getLabels());
        labels.put("ray.io/originated-from-cr-name", name);
        labels.put("ray.io/originated-from-crd", "RayService");
        Map<String, String> annotations = new LinkedHashMap<>(service.getMetadata().getAnnotations() == null ? Map.of()
                : service.getMetadata().getAnnotations());
        annotations.put(NUM_WORKER_GROUPS, String.valueOf(config.getWorkerGroupSpecs().size()));
        cluster.getMetadata().setLabels(labels);
        cluster.getMetadata().setAnnotations(annotations);
        cluster.getMetadata().setOwnerReferences(List.of(OwnerResources.controllerOf(service)));
        cluster.setSpec(config);
        return cluster;
    }

    private RayClusterSpec config(GenericKubernetesResource service) {
        Object spec = service.getAdditionalProperties().get("spec");
        Object config = spec instanceof Map<?, ?> fields ? fields.get("rayClusterConfig") : null;
        return json.convertValue(config, RayClusterSpec.class);
    }
}
