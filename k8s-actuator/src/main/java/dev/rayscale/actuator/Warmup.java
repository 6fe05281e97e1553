package dev.rayscale.actuator;

import dev.rayscale.events.codec.EventCodec;
import io.fabric8.kubernetes.api.model.ListOptionsBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.quarkus.runtime.StartupEvent;
import io.ray.v1.RayCluster;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.List;
import org.jboss.logging.Logger;

/**
 * Makes the first decision as quick as the later ones. Right after start-up, off the start-up path, it does once what
 * the first decision would otherwise pay for in a cold JVM (about 1.3 s in the demo, of which 0.6 s was the GCS call):
 * it reads and writes an example decision and result, reads one RayCluster (opening the API server connection and
 * loading what reading and patching a RayCluster needs), builds an Event about it, and reads its GCS.
 */
@ApplicationScoped
public class Warmup {

    private static final Logger LOG = Logger.getLogger(Warmup.class);

    void warm(@Observes StartupEvent event, KubernetesClient client, ActuationService actuation) {
        Thread thread = new Thread(() -> {
            long start = System.nanoTime();
            try {
                EventCodec.DECISIONS.warmUp();
                EventCodec.ACTUATIONS.warmUp();
            } catch (RuntimeException notShipped) {
                LOG.debugf("could not warm up the event codecs (the first decision will): %s", notShipped.getMessage());
            }
            try {
                List<RayCluster> sample = client.resources(RayCluster.class).inAnyNamespace()
                        .list(new ListOptionsBuilder().withLimit(1L).build()).getItems();
                if (!sample.isEmpty()) {
                    actuation.warmUp(sample.get(0));
                }
                LOG.debugf("warmed up in %d ms", (System.nanoTime() - start) / 1_000_000);
            } catch (RuntimeException notYet) {
                LOG.debugf("could not warm up the Kubernetes API or the GCS (the first decision will): %s", notYet.getMessage());
            }
        }, "actuator-warmup");
        thread.setDaemon(true);
        thread.start();
    }
}
