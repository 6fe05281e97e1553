package dev.rayscale.sim;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.Resource;
import java.util.function.UnaryOperator;

/**
 * An edit as Kubernetes' own writers make one: read, change, write back with the read's resourceVersion, and on
 * 409 Conflict read again and redo the change. controller-runtime requeues a reconcile whose update conflicted, and a
 * person whose {@code kubectl edit} conflicted edits again; a simulated writer that gave up instead would lose a write
 * the real one makes whenever Rayscale's actuator patched the same object in between.
 */
public final class Edits {

    static final int ATTEMPTS = 5;

    private Edits() {
    }

    /** {@code change} applied to {@code resource}, re-read and redone after each conflict, up to {@value #ATTEMPTS} times. */
    public static <T extends HasMetadata> T retryingConflicts(Resource<T> resource, UnaryOperator<T> change) {
        for (int attempt = 1; ; attempt++) {
            try {
                return resource.edit(change);
            } catch (KubernetesClientException e) {
                if (e.getCode() != 409 || attempt == ATTEMPTS) {
                    throw e;
                }
            }
        }
    }
}
