package dev.rayscale.actuator;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;

import dev.rayscale.events.CloudEventHeaders;
import dev.rayscale.events.Topics;
import dev.rayscale.events.codec.EventSchemas;
import dev.rayscale.testsupport.KafkaBrokerResource;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.kafka.InjectKafkaCompanion;
import io.smallrye.reactive.messaging.kafka.companion.KafkaCompanion;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;

/** The actuator's wiring against a real broker: it reads decisions and dead-letters what it cannot read. */
@QuarkusTest
@WithTestResource(KafkaBrokerResource.class)
class DecisionWiringTest {

    private static final String DLQ = Topics.deadLetter("k8s-actuator");

    @InjectKafkaCompanion
    KafkaCompanion kafka;

    @Inject
    MeterRegistry registry;

    @Test
    void readsDecisionsAndDeadLettersPoisonWithoutStalling() {
        double acceptedBefore = count("accepted");
        String poisonKey = "wiring/poison-" + System.nanoTime();

        kafka.produce(String.class, byte[].class).fromRecords(
                new ProducerRecord<>(Topics.DECISIONS, poisonKey, "{not json".getBytes(StandardCharsets.UTF_8)),
                new ProducerRecord<>(Topics.DECISIONS, "default/raycluster-autoscaler", example("walkthrough")));

        await().atMost(Duration.ofSeconds(30)).until(() -> count("accepted") >= acceptedBefore + 1);
        ConsumerRecord<String, byte[]> dead = kafka.consume(String.class, byte[].class).fromTopics(DLQ)
                .awaitRecords(1, Duration.ofSeconds(30)).getRecords().stream()
                .filter(r -> poisonKey.equals(r.key())).findFirst().orElseThrow();
        assertThat(new String(dead.value(), StandardCharsets.UTF_8)).isEqualTo("{not json");
        assertThat(CloudEventHeaders.read(dead.headers(), "dead-letter-reason"))
                .startsWith("invalid ScaleDecision: $: not valid JSON");
    }

    @Test
    void exposesHealthAndMetrics() {
        given().get("/q/health/ready").then().statusCode(200).body(containsString("Kafka"));
        given().get("/q/metrics").then().statusCode(200).body(containsString("rayscale_actuator_decisions"));
    }

    private double count(String outcome) {
        var counter = registry.find("rayscale.actuator.decisions").tag("outcome", outcome).counter();
        return counter == null ? 0 : counter.count();
    }

    private static byte[] example(String name) {
        return EventSchemas.readResource("examples/scale-decision/" + name + ".json").toString().getBytes(StandardCharsets.UTF_8);
    }
}
