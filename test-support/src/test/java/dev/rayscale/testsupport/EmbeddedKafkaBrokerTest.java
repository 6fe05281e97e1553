package dev.rayscale.testsupport;

import static org.assertj.core.api.Assertions.assertThat;

import io.smallrye.reactive.messaging.kafka.companion.KafkaCompanion;
import java.time.Duration;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;

/** The path CI takes where no Docker engine exists: a real broker inside the test JVM. */
class EmbeddedKafkaBrokerTest {

    @Test
    void carriesRecordsKeyedAndInOrder() {
        try (EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.start();
                KafkaCompanion companion = new KafkaCompanion(broker.bootstrapServers())) {
            companion.topics().createAndWait("probe", 3);

            companion.produceStrings().fromRecords(
                    new ProducerRecord<>("probe", "ns/a", "1"),
                    new ProducerRecord<>("probe", "ns/a", "2"),
                    new ProducerRecord<>("probe", "ns/a", "3")).awaitCompletion(Duration.ofSeconds(30));

            var records = companion.consumeStrings().fromTopics("probe", 3).awaitCompletion(Duration.ofSeconds(30)).getRecords();
            assertThat(records).extracting(r -> r.key() + "=" + r.value()).containsExactly("ns/a=1", "ns/a=2", "ns/a=3");
            assertThat(records).extracting(r -> r.partition()).containsOnly(records.get(0).partition());
        }
    }
}
