package dev.rayscale.actuator;

import dev.rayscale.events.codec.EventCodec;
import dev.rayscale.service.BackgroundWarmup;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
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
 * of RayClusters and pods, opens the API server connection with a read of its version (which every identity may make: the
 * actuator is granted no list of RayClusters, so it does not look for one to read) and builds an Event. The GCS channel of
 * the first decision's cluster is opened by that decision (about 0.6 s in the demo).
 */
@ApplicationScoped
public class Warmup {

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
                new BackgroundWarmup.Step("the Kubernetes API and its Events", () -> {
                    client.getKubernetesVersion();
                    reports.warmUp(sample());
                })));
    }

    private static RayCluster sample() {
        RayCluster cluster = new RayCluster();
        cluster.setMetadata(new ObjectMetaBuilder().withNamespace("default").withName("warm-up").withUid("warm-up").build());
        return cluster;
    }
}
