package dev.rayscale.clients;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.api.model.ObjectReferenceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.ray.v1.RayCluster;
import java.time.Instant;
import java.util.Locale;
import java.util.UUID;

/**
 * Records Kubernetes Events on a RayCluster, as the HPA does on what it scales, so that
 * {@code kubectl describe raycluster} tells people what Rayscale did and why.
 */
public final class ClusterEvents {

    public enum Type {
        Normal,
        Warning
    }

    private final KubernetesClient client;
    private final String component;

    /** @param component the reporting component, e.g. {@code rayscale-k8s-actuator} */
    public ClusterEvents(KubernetesClient client, String component) {
        this.client = client;
        this.component = component;
    }

    /**
     * Records one event. Failing to record is not worth failing the caller's work for; it is
     * reported as false.
     */
    public boolean record(RayCluster cluster, Type type, String reason, String message) {
        return create(event(cluster, type, reason, message));
    }

    /** Sends an event built earlier by {@link #event}; false if the API server did not take it. */
    public boolean create(Event event) {
        try {
            client.v1().events().inNamespace(event.getMetadata().getNamespace()).resource(event).create();
            return true;
        } catch (KubernetesClientException e) {
            return false;
        }
    }

    /**
     * Builds and serialises an event about {@code cluster} without sending it: the first event of a cold JVM spends a
     * few hundred milliseconds loading the builders and their serialisers, which a service can pay at start-up instead.
     */
    public void warmUp(RayCluster cluster) {
        client.getKubernetesSerialization().asJson(event(cluster, Type.Normal, "WarmUp", "not sent"));
    }

    /** The event as {@link #record} would send it, stamped now: a caller that sends it later keeps the time it happened. */
    public Event event(RayCluster cluster, Type type, String reason, String message) {
        String now = Instant.now().toString();
        String namespace = cluster.getMetadata().getNamespace();
        return new EventBuilder()
                .withNewMetadata()
                    .withName(cluster.getMetadata().getName() + "." + UUID.randomUUID().toString().substring(0, 8).toLowerCase(Locale.ROOT))
                    .withNamespace(namespace)
                .endMetadata()
                .withInvolvedObject(new ObjectReferenceBuilder()
                        .withApiVersion(cluster.getApiVersion())
                        .withKind(cluster.getKind())
                        .withName(cluster.getMetadata().getName())
                        .withNamespace(namespace)
                        .withUid(cluster.getMetadata().getUid())
                        .withResourceVersion(cluster.getMetadata().getResourceVersion())
                        .build())
                .withType(type.name())
                .withReason(reason)
                .withMessage(message)
                .withFirstTimestamp(now)
                .withLastTimestamp(now)
                .withCount(1)
                .withNewSource().withComponent(component).endSource()
                .withReportingComponent(component)
                .build();
    }
}
