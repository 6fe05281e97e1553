package dev.rayscale.actuator;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.ray.v1.RayCluster;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;
import org.jboss.logging.Logger;

/**
 * The actuator's only ways to touch Kubernetes: read a RayCluster and its pods, and apply one JSON
 * Patch to it. Transient failures (5xx, timeouts) are retried a bounded number of times with backoff;
 * conflicts (409, 422) and other refusals are not.
 */
@ApplicationScoped
public class ClusterApi {

    private static final Logger LOG = Logger.getLogger(ClusterApi.class);

    /** How a patch ended. */
    sealed interface PatchOutcome {
        int attempts();

        record Applied(String resourceVersion, int attempts) implements PatchOutcome {
        }

        record Conflict(String message, int attempts) implements PatchOutcome {
        }

        record Failed(String message, int attempts) implements PatchOutcome {
        }
    }

    private final KubernetesClient client;
    private final int attempts;
    private final Duration backoff;

    public ClusterApi(KubernetesClient client, ActuatorConfig config) {
        this.client = client;
        this.attempts = Math.max(1, config.patchAttempts());
        this.backoff = config.patchBackoff();
    }

    /** The RayCluster, or null if it does not exist. */
    RayCluster get(String namespace, String name) {
        return retrying(() -> client.resources(RayCluster.class).inNamespace(namespace).withName(name).get());
    }

    /** The cluster's pods by name. */
    Map<String, Pod> pods(String namespace, String clusterName) {
        Map<String, Pod> pods = new LinkedHashMap<>();
        retrying(() -> client.pods().inNamespace(namespace).withLabel("ray.io/cluster", clusterName).list())
                .getItems().forEach(pod -> pods.put(pod.getMetadata().getName(), pod));
        return pods;
    }

    PatchOutcome patch(String namespace, String name, String jsonPatch) {
        for (int attempt = 1; ; attempt++) {
            try {
                RayCluster patched = client.resources(RayCluster.class).inNamespace(namespace).withName(name)
                        .patch(PatchContext.of(PatchType.JSON), jsonPatch);
                return new PatchOutcome.Applied(patched.getMetadata().getResourceVersion(), attempt);
            } catch (KubernetesClientException e) {
                if (e.getCode() == 409 || e.getCode() == 422) {
                    return new PatchOutcome.Conflict(describe(e), attempt);
                }
                if (!transientFailure(e) || attempt >= attempts) {
                    return new PatchOutcome.Failed(describe(e), attempt);
                }
                LOG.warnf("patching %s/%s failed (%s); attempt %d of %d", namespace, name, describe(e), attempt, attempts);
                pause(attempt);
            }
        }
    }

    private <T> T retrying(Supplier<T> call) {
        for (int attempt = 1; ; attempt++) {
            try {
                return call.get();
            } catch (KubernetesClientException e) {
                if (!transientFailure(e) || attempt >= attempts) {
                    throw e;
                }
                pause(attempt);
            }
        }
    }

    /** 5xx, or no answer at all (timeouts, connection errors have code 0). */
    static boolean transientFailure(KubernetesClientException e) {
        return e.getCode() >= 500 || e.getCode() == 0 || e.getCode() == 429;
    }

    static String describe(KubernetesClientException e) {
        return (e.getCode() == 0 ? "no answer" : "HTTP " + e.getCode()) + ": " + e.getMessage();
    }

    private void pause(int attempt) {
        try {
            Thread.sleep(backoff.toMillis() << (attempt - 1));
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            throw new KubernetesClientException("interrupted while waiting to retry", interrupted);
        }
    }
}
