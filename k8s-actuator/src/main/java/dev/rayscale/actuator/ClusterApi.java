package dev.rayscale.actuator;

import dev.rayscale.actuator.core.ObservedCluster;
import dev.rayscale.clients.ClusterReaders;
import dev.rayscale.kuberay.RayLabels;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.ray.v1.RayCluster;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The actuator's only ways to touch Kubernetes: read a RayCluster (with its pods), or its pods alone, and apply one JSON
 * Patch to it. Reads are retried a bounded number of times on transient failures (5xx, 429, no
 * answer); a patch is sent once and its outcome told apart, because retrying a patch blindly is
 * wrong: one that timed out may have landed, and its retry would then fail its own test operations. Every request is
 * timed, by what it asked and how it ended ({@link ActuatorMetrics#kubernetesRequest}).
 */
@ApplicationScoped
public class ClusterApi {

    /** A RayCluster as read: the object itself (for the GCS channel) and the actuator's view of it. */
    record Observation(RayCluster cluster, ObservedCluster view) {
    }

    /** How one patch request ended. */
    public sealed interface PatchOutcome {

        /** It landed, leaving the RayCluster as {@code written} shows it (its pods not read; null for a RayService). */
        record Applied(Observation written) implements PatchOutcome {
        }

        /** The API server refused it: a test operation failed (422) or a conflict (409). Nothing was written. */
        record Conflict(String message) implements PatchOutcome {
        }

        /** No answer, or a 5xx/429: it may or may not have been applied. */
        record Unknown(String message) implements PatchOutcome {
        }

        /** Any other refusal (403, 404, ...): nothing was written, and trying again will not help. */
        record Refused(String message) implements PatchOutcome {
        }
    }

    /**
     * The field manager Rayscale's writes are recorded under in {@code managedFields}: what tells its writes from others'
     * ({@link Observations#workerGroupsManager}), and what a GitOps tool's docs ask for.
     */
    public static final String FIELD_MANAGER = "rayscale-actuator";
    /** KubeRay's RayService, addressed without discovery: its CRD is KubeRay's, installed beside the RayCluster's. */
    static final ResourceDefinitionContext RAY_SERVICES = new ResourceDefinitionContext.Builder().withGroup("ray.io").withVersion("v1")
            .withKind("RayService").withPlural("rayservices").withNamespaced(true).build();
    private static final PatchContext JSON_PATCH = new PatchContext.Builder().withPatchType(PatchType.JSON).withFieldManager(FIELD_MANAGER)
            .build();

    private final KubernetesClient client;
    private final ClusterReaders readers;
    private final ActuatorConfig config;
    private final ActuatorMetrics metrics;

    public ClusterApi(KubernetesClient client, ActuatorConfig config, ActuatorMetrics metrics) {
        this.client = client;
        this.readers = new ClusterReaders(client);
        this.config = config;
        this.metrics = metrics;
    }

    /**
     * Builds the client's readers of RayClusters and pods (the warm-up does, ahead of the first decision). Every call
     * below waits for them first, on its own thread: asked for while the warm-up builds them, its answer would wait for
     * them on the event loop ({@link ClusterReaders}).
     */
    boolean buildReaders() {
        return readers.build();
    }

    /** The RayCluster and, if asked, its pods; null if the RayCluster does not exist. */
    Observation observe(String namespace, String name, boolean withPods) {
        buildReaders();
        RayCluster cluster = retrying("raycluster.get", () -> client.resources(RayCluster.class).inNamespace(namespace).withName(name).get());
        if (cluster == null) {
            return null;
        }
        return new Observation(cluster, Observations.of(cluster, withPods ? podsOf(namespace, name) : List.of(), config.replicaLabel()));
    }

    /** The RayCluster's pods as they are now (none once it is gone), in the actuator's terms. */
    Map<String, ObservedCluster.ObservedPod> pods(String namespace, String name) {
        return Observations.pods(podsOf(namespace, name), config.replicaLabel());
    }

    private List<Pod> podsOf(String namespace, String name) {
        buildReaders();
        return retrying("pods.list", () -> client.pods().inNamespace(namespace).withLabel(RayLabels.CLUSTER, name).list()).getItems();
    }

    public PatchOutcome patch(String namespace, String name, String jsonPatch) {
        buildReaders();
        try {
            RayCluster patched = timed("raycluster.patch", () -> client.resources(RayCluster.class).inNamespace(namespace).withName(name)
                    .patch(JSON_PATCH, jsonPatch));
            return new PatchOutcome.Applied(new Observation(patched, Observations.of(patched, List.of(), config.replicaLabel())));
        } catch (KubernetesClientException e) {
            if (e.getCode() == 409 || e.getCode() == 422) {
                return new PatchOutcome.Conflict(describe(e));
            }
            return transientFailure(e) ? new PatchOutcome.Unknown(describe(e)) : new PatchOutcome.Refused(describe(e));
        }
    }

    /** The RayService, as its own fields (Rayscale has no model of it); null if it does not exist. */
    GenericKubernetesResource rayService(String namespace, String name) {
        return retrying("rayservice.get", () -> client.genericKubernetesResources(RAY_SERVICES).inNamespace(namespace).withName(name).get());
    }

    /** One JSON Patch to a RayService, sent once, its outcome told apart as for a RayCluster's. */
    PatchOutcome patchRayService(String namespace, String name, String jsonPatch) {
        try {
            timed("rayservice.patch", () -> client.genericKubernetesResources(RAY_SERVICES).inNamespace(namespace).withName(name)
                    .patch(JSON_PATCH, jsonPatch));
            return new PatchOutcome.Applied(null);
        } catch (KubernetesClientException e) {
            if (e.getCode() == 409 || e.getCode() == 422) {
                return new PatchOutcome.Conflict(describe(e));
            }
            return transientFailure(e) ? new PatchOutcome.Unknown(describe(e)) : new PatchOutcome.Refused(describe(e));
        }
    }

    private <T> T retrying(String request, Supplier<T> call) {
        for (int attempt = 1; ; attempt++) {
            try {
                return timed(request, call);
            } catch (KubernetesClientException e) {
                if (!transientFailure(e) || attempt >= config.patchAttempts()) {
                    throw e;
                }
                pause(attempt);
            }
        }
    }

    /** Makes one request, timed in the actuator's metrics by what it asked and how it ended. */
    private <T> T timed(String request, Supplier<T> call) {
        long started = System.nanoTime();
        try {
            T answer = call.get();
            metrics.kubernetesRequest(request, "answered", System.nanoTime() - started);
            return answer;
        } catch (KubernetesClientException e) {
            metrics.kubernetesRequest(request, e.getCode() <= 0 ? "no-answer" : transientFailure(e) ? "failed" : "refused", System.nanoTime() - started);
            throw e;
        }
    }

    /** 5xx, 429, or no answer at all (the client gives timeouts and connection errors code 0 or -1). */
    static boolean transientFailure(KubernetesClientException e) {
        return e.getCode() >= 500 || e.getCode() <= 0 || e.getCode() == 429;
    }

    static String describe(KubernetesClientException e) {
        return (e.getCode() <= 0 ? "no answer" : "HTTP " + e.getCode()) + ": " + e.getMessage();
    }

    /** Waits before attempt {@code attempt + 1}: the configured backoff, doubled per attempt. */
    void pause(int attempt) {
        try {
            Thread.sleep(config.patchBackoff().toMillis() << Math.min(10, attempt - 1));
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            throw new KubernetesClientException("interrupted while waiting to retry", interrupted);
        }
    }
}
