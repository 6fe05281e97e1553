package dev.rayscale.actuator;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.quarkus.runtime.StartupEvent;
import io.ray.v1.RayCluster;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import org.jboss.logging.Logger;

/**
 * Makes the first decision as quick as the later ones: right after start-up, off the start-up path,
 * one cheap read of RayClusters opens the API server connection and loads what reading and patching
 * a RayCluster needs, which the first decision would otherwise pay for (seconds, on a small machine).
 */
@ApplicationScoped
public class Warmup {

    private static final Logger LOG = Logger.getLogger(Warmup.class);

    void warm(@Observes StartupEvent event, KubernetesClient client) {
        Thread thread = new Thread(() -> {
            long start = System.nanoTime();
            try {
                client.resources(RayCluster.class).inAnyNamespace().list(new io.fabric8.kubernetes.api.model.ListOptionsBuilder().withLimit(1L).build());
                LOG.debugf("Kubernetes API warmed up in %d ms", (System.nanoTime() - start) / 1_000_000);
            } catch (RuntimeException notYet) {
                LOG.debugf("could not warm up the Kubernetes API (the first decision will): %s", notYet.getMessage());
            }
        }, "actuator-warmup");
        thread.setDaemon(true);
        thread.start();
    }
}
