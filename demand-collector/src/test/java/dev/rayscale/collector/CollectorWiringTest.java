package dev.rayscale.collector;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.rayscale.events.ClusterSnapshot;
import dev.rayscale.events.TaskDemand;
import dev.rayscale.sim.FakeGcs;
import dev.rayscale.sim.GcsStates;
import dev.rayscale.testsupport.InMemoryChannels;
import dev.rayscale.testsupport.RayClusterCrd;
import dev.rayscale.testsupport.RayClusters;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.quarkus.test.kubernetes.client.WithKubernetesTestServer;
import io.ray.v1.RayCluster;
import io.smallrye.reactive.messaging.memory.InMemoryConnector;
import io.smallrye.reactive.messaging.memory.InMemorySink;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.eclipse.microprofile.reactive.messaging.spi.Connector;
import org.junit.jupiter.api.Test;

/**
 * The collector's wiring, without a broker: the snapshots channel on SmallRye's in-memory connector. What only a broker
 * shows (serialisation, CloudEvents headers, records too large, restarts) is CollectorServiceTest's and the e2e tests'.
 */
@QuarkusTest
@TestProfile(CollectorWiringTest.WithoutBroker.class)
@WithKubernetesTestServer(crud = true, setup = RayClusterCrd.class)
class CollectorWiringTest {

    public static final class WithoutBroker implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return InMemoryChannels.config(List.of(), List.of(CollectorChannels.SNAPSHOTS));
        }
    }

    @Inject
    @Connector("smallrye-in-memory")
    InMemoryConnector connector;

    @Inject
    KubernetesClient kubernetes;

    @Test
    void anOptedInClustersDemandIsPublishedKeyedByTheCluster() {
        try (FakeGcs gcs = FakeGcs.start()) {
            gcs.serve(GcsStates.state(7).tasks(Map.of("CPU", 1.0), 15).build());
            RayCluster cluster = RayClusters.walkthrough("default", "wiring-" + Long.toHexString(System.nanoTime()).substring(6));
            cluster.getMetadata().getAnnotations().put("rayscale.dev/gcs-address", gcs.address());
            kubernetes.resources(RayCluster.class).inNamespace("default").resource(cluster).create();
            String key = "default/" + cluster.getMetadata().getName();
            InMemorySink<ClusterSnapshot> snapshots = connector.sink(CollectorChannels.SNAPSHOTS);

            await().atMost(Duration.ofSeconds(20)).until(() -> snapshots.received().stream().anyMatch(message -> ofCluster(message, key)
                    && message.getPayload().hasRayState()));

            Message<ClusterSnapshot> message = snapshots.received().stream()
                    .filter(m -> ofCluster(m, key) && m.getPayload().hasRayState()).findFirst().orElseThrow();
            assertThat(message.getPayload().cluster().id()).isEqualTo(key);
            assertThat(message.getPayload().demand().tasks()).extracting(TaskDemand::count).containsExactly(15L);
        }
    }

    private static boolean ofCluster(Message<ClusterSnapshot> message, String key) {
        return key.equals(InMemoryChannels.key(message));
    }
}
