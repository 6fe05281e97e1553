package dev.rayscale.actuator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.rayscale.actuator.core.Notice;
import dev.rayscale.actuator.core.ObservedCluster;
import dev.rayscale.actuator.core.RayServiceReplicas;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.ray.v1.RayCluster;
import java.util.List;
import java.util.Optional;
import org.jboss.logging.Logger;

/**
 * After each write to a RayCluster a RayService owns, the RayService's {@code rayClusterConfig} replicas are set to what
 * was written ({@link RayServiceReplicas}), so that a rebuild of the cluster from it keeps every pod. Only through the
 * RayService's active cluster ({@code status.activeServiceStatus.rayClusterName}): a pending cluster of a zero-downtime
 * upgrade is built from those replicas and takes over their keeping once promoted. The RayService is the one the
 * RayCluster's controller reference names, with that reference's uid, and it must name the cluster as its active one: an
 * owner reference alone, which the cluster's owner can write, does not make Rayscale write a RayService.
 */
final class RayServices {

    private static final Logger LOG = Logger.getLogger(RayServices.class);
    private static final ObjectMapper JSON = new ObjectMapper();

    private final ClusterApi api;
    private final ClusterReports reports;
    private final ActuatorMetrics metrics;

    RayServices(ClusterApi api, ClusterReports reports, ActuatorMetrics metrics) {
        this.api = api;
        this.reports = reports;
        this.metrics = metrics;
    }

    /** Rayscale wrote {@code written} (the groups as it left them) to {@code cluster}: its RayService, if any, is told. */
    void keepInStep(RayCluster cluster, List<ObservedCluster.ObservedGroup> written) {
        OwnerReference owner = owner(cluster);
        if (owner == null) {
            return;
        }
        String namespace = cluster.getMetadata().getNamespace();
        String why;
        try {
            GenericKubernetesResource service = api.rayService(namespace, owner.getName());
            if (service == null || !owner.getUid().equals(service.getMetadata().getUid())) {
                metrics.rayServiceSync("not-owner");
                return;
            }
            JsonNode fields = JSON.valueToTree(service.getAdditionalProperties());
            if (!cluster.getMetadata().getName().equals(fields.path("status").path("activeServiceStatus").path("rayClusterName").asText(""))) {
                metrics.rayServiceSync("not-active");
                return;
            }
            Optional<String> patch = RayServiceReplicas.patch(written, fields.path("spec").path("rayClusterConfig").path("workerGroupSpecs"));
            if (patch.isEmpty()) {
                metrics.rayServiceSync("in-step");
                return;
            }
            ClusterApi.PatchOutcome outcome = api.patchRayService(namespace, owner.getName(), patch.get());
            if (outcome instanceof ClusterApi.PatchOutcome.Applied) {
                metrics.rayServiceSync("written");
                return;
            }
            why = outcome.toString();
        } catch (KubernetesClientException e) {
            why = ClusterApi.describe(e);
        }
        metrics.rayServiceSync("failed");
        String message = "Rayscale could not write the replicas it gave this cluster into RayService " + owner.getName()
                + "'s rayClusterConfig (" + why + "). If KubeRay rebuilds the cluster from it (worker groups appended, an operator "
                + "upgrade), the operator deletes the pods above the RayService's replicas, busy or not. Rayscale tries again at "
                + "its next write; check its RBAC for rayservices (get, patch).";
        LOG.warnf("%s/%s: %s", namespace, cluster.getMetadata().getName(), message);
        reports.events(cluster, List.of(new Notice(true, "RayServiceNotInStep", message)));
    }

    /** The RayService that controls the cluster, by its owner reference; null if none does. */
    static OwnerReference owner(RayCluster cluster) {
        List<OwnerReference> owners = cluster.getMetadata().getOwnerReferences();
        return owners == null ? null : owners.stream().filter(owner -> "RayService".equals(owner.getKind()) && Boolean.TRUE.equals(owner.getController())
                && owner.getApiVersion() != null && owner.getApiVersion().startsWith("ray.io/") && owner.getUid() != null)
                .findFirst().orElse(null);
    }
}
