package dev.rayscale.sim;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.ray.v1.RayCluster;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The KubeRay RayJob controller, as far as it writes its RayCluster ({@code rayjob_controller.go} at kuberay
 * {@code feeaf72f}):
 * <ul>
 *   <li>it builds the cluster once ({@code getOrCreateRayClusterInstance}, {@code constructRayClusterForRayJob}): its spec is
 *       the RayJob's {@code rayClusterSpec}, its labels and annotations the RayJob's, all of them, plus
 *       {@code ray.io/originated-from-crd: RayJob}, {@code ray.io/originated-from-cr-name} and
 *       {@code ray.io/job-submission-mode}; the RayJob is its controller owner. Later changes of {@code rayClusterSpec} are
 *       disregarded ("Disregard changes in RayClusterSpec of RayJob"): nothing writes the cluster's replicas again;</li>
 *   <li>once the job has ended, the {@code DeleteWorkers} deletion policy sets {@code suspend: true} on every worker group
 *       ({@code suspendWorkerGroups}, an update of the whole object), and the operator deletes their pods (B7.31).</li>
 * </ul>
 * Not modelled: the other deletion policies (they delete the cluster or only the submitter) and the job's submitter.
 */
final class RayJobController {

    static final ResourceDefinitionContext RAY_JOBS = new ResourceDefinitionContext.Builder().withGroup("ray.io").withVersion("v1")
            .withKind("RayJob").withPlural("rayjobs").withNamespaced(true).build();

    private final KubernetesClient client;
    private final String namespace;
    private final Workload.RayJobOwner job;
    private final String clusterName;
    private final Consumer<String> happened;
    private boolean workersDeleted;

    RayJobController(KubernetesClient client, String namespace, Workload.RayJobOwner job, String clusterName, Consumer<String> happened) {
        this.client = client;
        this.namespace = namespace;
        this.job = job;
        this.clusterName = clusterName;
        this.happened = happened;
    }

    /**
     * Creates the RayJob whose {@code rayClusterSpec} is {@code cluster}'s spec and whose metadata carries its annotations
     * (where a RayJob's owner puts them), then returns {@code cluster} as the controller builds it.
     */
    RayCluster create(RayCluster cluster) {
        GenericKubernetesResource created = OwnerResources.create(client, RAY_JOBS, namespace, job.name(), cluster.getMetadata().getAnnotations(),
                Map.of("deletionStrategy", Map.of("onSuccess", Map.of("policy", "DeleteWorkers")),
                        "rayClusterSpec", client.getKubernetesSerialization().convertValue(cluster.getSpec(), Map.class)));
        Map<String, String> labels = new LinkedHashMap<>();
        labels.put("ray.io/originated-from-cr-name", job.name());
        labels.put("ray.io/originated-from-crd", "RayJob");
        labels.put("ray.io/job-submission-mode", "K8sJobMode");
        cluster.getMetadata().setLabels(labels);
        cluster.getMetadata().setOwnerReferences(List.of(OwnerResources.controllerOf(created)));
        return cluster;
    }

    /** Whether the job has ended and its worker groups were suspended. */
    boolean workersDeleted() {
        return workersDeleted;
    }

    /** One reconcile at {@code now} (workload seconds): once the job has ended, its worker groups suspended, once. */
    void reconcile(double now) {
        if (workersDeleted || now < job.endsAtSeconds()) {
            return;
        }
        workersDeleted = true;
        happened.accept("the RayJob " + job.name() + " has ended; its DeleteWorkers policy suspends every worker group of " + clusterName);
        Edits.retryingConflicts(client.resources(RayCluster.class).inNamespace(namespace).withName(clusterName), cluster -> {
            cluster.getSpec().getWorkerGroupSpecs().forEach(group -> group.setSuspend(true));
            return cluster;
        });
    }
}
