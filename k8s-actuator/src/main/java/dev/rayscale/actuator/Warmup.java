package dev.rayscale.actuator;

import dev.rayscale.events.Annotations;
import dev.rayscale.events.codec.EventCodec;
import dev.rayscale.service.BackgroundWarmup;
import io.fabric8.kubernetes.api.model.ListOptionsBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.quarkus.runtime.StartupEvent;
import io.ray.v1.RayCluster;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.List;

/**
 * Makes the first decision as quick as the later ones. Right after start-up, off the start-up path, it does once what
 * the first decision would otherwise pay for in a cold JVM (about 1.3 s in the demo, of which 0.6 s was the GCS call):
 * after the producers are readied ({@link BackgroundWarmup}), it reads and writes an example decision and result, builds the readers
 * of RayClusters and pods, reads a page of RayClusters (opening the API server connection and loading what reading and
 * patching a RayCluster needs) and, for the first opted-in one, builds an Event and reads its GCS.
 */
@ApplicationScoped
public class Warmup {

    /** RayClusters read to find an opted-in one: only such a cluster's GCS is Rayscale's to call. */
    private static final long SAMPLE = 50;

    void warm(@Observes StartupEvent event, KubernetesClient client, ClusterApi api, ClusterReports reports) {
        BackgroundWarmup.start("actuator-warmup", List.of(
                new BackgroundWarmup.Step("the event codecs", () -> {
                    EventCodec.DECISIONS.warmUp();
                    EventCodec.ACTUATIONS.warmUpWriting();
                }),
                // Before the page below is read: on the event loop they would block it (ClusterReaders).
                new BackgroundWarmup.Step("the readers of RayClusters and pods", () -> {
                    if (!api.buildReaders()) {
                        throw new IllegalStateException("building them failed");
                    }
                }),
                new BackgroundWarmup.Step("the Kubernetes API and the GCS", () -> client.resources(RayCluster.class).inAnyNamespace()
                        .list(new ListOptionsBuilder().withLimit(SAMPLE).build()).getItems().stream()
                        .filter(cluster -> Annotations.optedIn(cluster.getMetadata().getAnnotations())).findFirst()
                        .ifPresent(reports::warmUp))));
    }
}
