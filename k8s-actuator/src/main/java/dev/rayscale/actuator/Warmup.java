package dev.rayscale.actuator;

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
 * it reads and writes an example decision and result, reads one RayCluster (opening the API server connection and
 * loading what reading and patching a RayCluster needs), builds an Event about it, and reads its GCS.
 */
@ApplicationScoped
public class Warmup {

    void warm(@Observes StartupEvent event, KubernetesClient client, ActuationService actuation) {
        BackgroundWarmup.start("actuator-warmup", List.of(
                new BackgroundWarmup.Step("the event codecs", () -> {
                    EventCodec.DECISIONS.warmUp();
                    EventCodec.ACTUATIONS.warmUp();
                }),
                new BackgroundWarmup.Step("the Kubernetes API and the GCS", () -> client.resources(RayCluster.class).inAnyNamespace()
                        .list(new ListOptionsBuilder().withLimit(1L).build()).getItems().stream().findFirst().ifPresent(actuation::warmUp))));
    }
}
