package dev.rayscale.collector;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;

import dev.rayscale.events.CloudEventHeaders;
import dev.rayscale.events.ClusterSnapshot;
import dev.rayscale.events.Topics;
import dev.rayscale.events.codec.EventCodec;
import dev.rayscale.events.codec.EventSchemas;
import dev.rayscale.testsupport.KafkaBrokerResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.kafka.InjectKafkaCompanion;
import io.smallrye.reactive.messaging.kafka.companion.KafkaCompanion;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

/** The collector's wiring against a real broker: snapshots land on their topic, keyed, with CloudEvents headers. */
@QuarkusTest
@WithTestResource(KafkaBrokerResource.class)
class SnapshotPublisherTest {

    @InjectKafkaCompanion
    KafkaCompanion kafka;

    @Inject
    SnapshotPublisher publisher;

    @Test
    void publishesSnapshotsKeyedByClusterWithCloudEventsHeaders() throws Exception {
        ClusterSnapshot snapshot = EventCodec.SNAPSHOTS.decode(EventSchemas.readResource("examples/cluster-snapshot/walkthrough.json"));

        publisher.publish(snapshot).toCompletableFuture().get(30, TimeUnit.SECONDS);

        ConsumerRecord<String, byte[]> record = kafka.consume(String.class, byte[].class).fromTopics(Topics.SNAPSHOTS)
                .awaitRecords(1, Duration.ofSeconds(30)).getRecords().stream()
                .filter(r -> snapshot.id().equals(CloudEventHeaders.read(r.headers(), CloudEventHeaders.ID)))
                .findFirst().orElseThrow();
        assertThat(record.key()).isEqualTo("default/raycluster-autoscaler");
        assertThat(CloudEventHeaders.read(record.headers(), CloudEventHeaders.TYPE)).isEqualTo("dev.rayscale.snapshot.v1");
        assertThat(CloudEventHeaders.read(record.headers(), CloudEventHeaders.SOURCE)).isEqualTo("//rayscale.dev/demand-collector");
        assertThat(CloudEventHeaders.read(record.headers(), CloudEventHeaders.SUBJECT)).isEqualTo("default/raycluster-autoscaler");
        assertThat(EventCodec.SNAPSHOTS.decode(record.value())).isEqualTo(snapshot);
    }

    @Test
    void exposesHealthAndMetrics() {
        given().get("/q/health/ready").then().statusCode(200).body(containsString("Kafka"));
        given().get("/q/metrics").then().statusCode(200).body(containsString("jvm_memory_used_bytes"));
    }
}
