package dev.rayscale.actuator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.rayscale.events.ActuationCause;
import dev.rayscale.events.ActuationResult;
import dev.rayscale.events.ScaleDecision;
import dev.rayscale.events.Topics;
import dev.rayscale.events.codec.EventCodec;
import dev.rayscale.sim.FakeGcs;
import dev.rayscale.testsupport.InMemoryBatch;
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
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.eclipse.microprofile.reactive.messaging.spi.Connector;
import org.junit.jupiter.api.Test;

/**
 * The actuator's wiring, without a broker: its three channels on SmallRye's in-memory connector, a poll's batch made in
 * memory; the fabric8 mock API server and a fake GCS as in ActuatorServiceTest. What only a broker shows
 * (serialisation, CloudEvents headers, offsets, rebalances) is ActuatorServiceTest's.
 */
@QuarkusTest
@TestProfile(ActuatorWiringTest.WithoutBroker.class)
@WithKubernetesTestServer(crud = true, setup = RayClusterCrd.class)
class ActuatorWiringTest {

    public static final class WithoutBroker implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return InMemoryChannels.config(List.of(ActuatorChannels.DECISIONS),
                    List.of(ActuatorChannels.ACTUATIONS, ActuatorChannels.DEAD_LETTERS));
        }
    }

    @Inject
    @Connector("smallrye-in-memory")
    InMemoryConnector connector;

    @Inject
    KubernetesClient kubernetes;

    @Test
    void aDecisionIsAppliedAndItsResultPublishedKeyedByItsClusterAndPoisonIsSetAside() {
        try (FakeGcs gcs = FakeGcs.start()) {
            RayCluster cluster = RayClusters.walkthrough("default", "wiring-" + Long.toHexString(System.nanoTime()).substring(6));
            cluster.getMetadata().getAnnotations().put("rayscale.dev/gcs-address", gcs.address());
            cluster.getSpec().getWorkerGroupSpecs().get(0).setReplicas(0);
            cluster = kubernetes.resources(RayCluster.class).inNamespace("default").resource(cluster).create();
            ScaleDecision decision = Decisions.scale(cluster, 10, 0, 3, List.of());
            InMemoryBatch batch = new InMemoryBatch(Topics.DECISIONS, List.of(
                    Map.entry("default/poison", "not a decision".getBytes(StandardCharsets.UTF_8)),
                    Map.entry(decision.cluster().id(), EventCodec.DECISIONS.encode(decision))));

            connector.source(ActuatorChannels.DECISIONS).send(batch);

            // Each record is acknowledged only once its result or its dead letter is out: then the sinks hold all there is.
            await().atMost(Duration.ofSeconds(20)).until(() -> batch.acknowledged() == 2);
            assertThat(batch.refused()).isZero();
            assertThat(connector.<ActuationResult>sink(ActuatorChannels.ACTUATIONS).received()).singleElement().satisfies(message -> {
                assertThat(InMemoryChannels.key(message)).isEqualTo(decision.cluster().id());
                assertThat(message.getPayload().decisionId()).isEqualTo(decision.id());
                assertThat(message.getPayload().cause()).isEqualTo(ActuationCause.PATCHED);
            });
            assertThat(kubernetes.resources(RayCluster.class).inNamespace("default").withName(cluster.getMetadata().getName()).get()
                    .getSpec().getWorkerGroupSpecs().get(0).getReplicas()).isEqualTo(3);
            await().atMost(Duration.ofSeconds(20)).until(() -> !gcs.reports().isEmpty());
            assertThat(connector.<byte[]>sink(ActuatorChannels.DEAD_LETTERS).received())
                    .singleElement().satisfies(message -> assertThat(InMemoryChannels.key(message)).isEqualTo("default/poison"));
        }
    }

}
