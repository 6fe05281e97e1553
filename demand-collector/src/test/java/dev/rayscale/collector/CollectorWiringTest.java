package dev.rayscale.collector;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.rayscale.events.ClusterSnapshot;
import dev.rayscale.events.TaskDemand;
import dev.rayscale.sim.FakeGcs;
import dev.rayscale.sim.GcsStates;
import dev.rayscale.testsupport.RayClusterCrd;
import dev.rayscale.testsupport.RayClusters;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.quarkus.test.kubernetes.client.WithKubernetesTestServer;
import io.ray.v1.RayCluster;
import io.smallrye.reactive.messaging.kafka.api.OutgoingKafkaRecordMetadata;
import io.smallrye.reactive.messaging.memory.InMemoryConnector;
import io.smallrye.reactive.messaging.memory.InMemorySink;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.Map;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.eclipse.microprofile.reactive.messaging.spi.Connector;
import org.junit.jupiter.api.Test;

/**
 * The collector's wiring, without a broker: the snapshots channel on SmallRye's in-memory connector. What only a broker
 * shows (serialisation, CloudEvents headers, records too large, restarts) is CollectorServiceTest's and the e2e tests'.
 */
@QuarkusTest
@TestProfile(CollectorWiringTest.InMemoryChannels.class)
@WithKubernetesTestServer(crud = true, setup = RayClusterCrd.class)
class CollectorWiringTest {

    public static final class InMemoryChannels implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            // As profile configuration only: InMemoryConnector.switchOutgoingChannelsToInMemory also sets system properties,
            // which would carry the switch into the broker-backed tests that run after this one in the same JVM.
            return Map.of("mp.messaging.outgoing." + CollectorChannels.SNAPSHOTS + ".connector", InMemoryConnector.CONNECTOR,
                    "quarkus.kafka.health.enabled", "false");
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
        return message.getMetadata(OutgoingKafkaRecordMetadata.class).map(metadata -> key.equals(metadata.getKey())).orElse(false);
    }
}
