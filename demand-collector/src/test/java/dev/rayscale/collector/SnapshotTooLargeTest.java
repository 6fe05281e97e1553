package dev.rayscale.collector;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.rayscale.events.Topics;
import dev.rayscale.sim.FakeGcs;
import dev.rayscale.testsupport.KafkaBrokerResource;
import dev.rayscale.testsupport.RayClusterCrd;
import dev.rayscale.testsupport.RayClusters;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.quarkus.test.kafka.InjectKafkaCompanion;
import io.quarkus.test.kubernetes.client.WithKubernetesTestServer;
import io.ray.v1.RayCluster;
import io.smallrye.reactive.messaging.kafka.companion.ConsumerTask;
import io.smallrye.reactive.messaging.kafka.companion.KafkaCompanion;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A snapshot that cannot be written is never dropped silently: it is counted, and said on the RayCluster as an Event. */
@QuarkusTest
@TestProfile(SnapshotTooLargeTest.SmallRecords.class)
@WithTestResource(KafkaBrokerResource.class)
@WithKubernetesTestServer(crud = true, setup = RayClusterCrd.class)
class SnapshotTooLargeTest {

    /** Records bounded at 64 KiB before compression, so that a cluster of a few hundred nodes is too large. */
    public static final class SmallRecords implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("mp.messaging.outgoing.snapshots.max.request.size", "65536");
        }
    }

    @InjectKafkaCompanion
    KafkaCompanion kafka;

    @Inject
    KubernetesClient kubernetes;

    @Test
    void aSnapshotTooLargeToPublishIsCountedAndReportedOnTheCluster() {
        RayCluster cluster = RayClusters.walkthrough("default", "too-large-" + Long.toHexString(System.nanoTime()).substring(6));
        String key = cluster.getMetadata().getNamespace() + "/" + cluster.getMetadata().getName();
        try (FakeGcs gcs = FakeGcs.start(); ConsumerTask<String, byte[]> snapshots = kafka.consume(String.class, byte[].class)
                // Only this cluster's: a broker that outlives a test run holds earlier runs' big snapshots too.
                .fromTopics(Topics.SNAPSHOTS, records -> records.select().where(record -> key.equals(record.key())))) {
            gcs.serve(BigClusterTest.state(cluster, 300, 300).build());
            cluster.getMetadata().getAnnotations().put("rayscale.dev/gcs-address", gcs.address());
            kubernetes.resources(RayCluster.class).inNamespace("default").resource(cluster).create();

            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(warnings(cluster)).singleElement().satisfies(event -> {
                assertThat(event.getReason()).isEqualTo("SnapshotTooLarge");
                assertThat(event.getMessage()).contains("not scaling it").contains("max.request.size").contains("bytes when serialized");
            }));
            await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(given().get("/q/metrics").then().statusCode(200)
                    .extract().asString()).containsPattern("rayscale_collector_snapshots_too_large_total\\{cluster=\"" + key + "\"\\} [1-9]"));
            assertThat(snapshots.getRecords()).noneMatch(record -> key.equals(record.key()) && record.value().length > 65536);
        }
    }

    private List<Event> warnings(RayCluster cluster) {
        return kubernetes.v1().events().inNamespace("default").list().getItems().stream()
                .filter(e -> cluster.getMetadata().getName().equals(e.getInvolvedObject().getName()))
                .filter(e -> "Warning".equals(e.getType())).toList();
    }
}
