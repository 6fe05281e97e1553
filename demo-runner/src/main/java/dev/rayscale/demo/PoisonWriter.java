package dev.rayscale.demo;

import dev.rayscale.events.EventType;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;

/** Writes the {@link Poison} records to the input topics, and says where each landed. */
final class PoisonWriter {

    /** Where a bad record landed (or that the broker refused it). */
    record Landed(String topic, int partition, long offset, Poison.Kind kind) {
    }

    /** What was written: the records that landed, and how many the broker refused. */
    record Written(List<Landed> landed, int refused) {
    }

    private PoisonWriter() {
    }

    /** Writes the poison for {@code types}' topics, all keyed by {@code clusterId}; waits until the broker has each. */
    static Written write(String bootstrapServers, String clusterId, List<EventType<?>> types) throws InterruptedException {
        List<Landed> landed = new ArrayList<>();
        int refused = 0;
        try (KafkaProducer<String, byte[]> plain = producer(bootstrapServers, "none", 1024 * 1024);
                // A producer may compress: the broker's limit applies to the compressed batch, so far larger values get through.
                KafkaProducer<String, byte[]> compressing = producer(bootstrapServers, "gzip", 8 * 1024 * 1024)) {
            record Sent(Future<RecordMetadata> future, Poison.Kind kind) {
            }
            List<Sent> sent = new ArrayList<>();
            for (EventType<?> type : types) {
                for (Poison.Record poison : Poison.forTopic(type, clusterId)) {
                    ProducerRecord<String, byte[]> record = new ProducerRecord<>(type.topic(), clusterId, poison.value());
                    poison.headers().forEach((name, value) -> record.headers().add(name, value.getBytes(StandardCharsets.UTF_8)));
                    sent.add(new Sent((poison.compressed() ? compressing : plain).send(record), poison.kind()));
                }
            }
            for (Sent one : sent) {
                try {
                    RecordMetadata metadata = one.future().get(60, TimeUnit.SECONDS);
                    landed.add(new Landed(metadata.topic(), metadata.partition(), metadata.offset(), one.kind()));
                } catch (ExecutionException | TimeoutException refusedByBroker) {
                    refused++;
                }
            }
        }
        return new Written(List.copyOf(landed), refused);
    }

    private static KafkaProducer<String, byte[]> producer(String bootstrapServers, String compression, int maxRequestSize) {
        Properties config = new Properties();
        config.putAll(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers, ProducerConfig.ACKS_CONFIG, "all",
                ProducerConfig.COMPRESSION_TYPE_CONFIG, compression, ProducerConfig.MAX_REQUEST_SIZE_CONFIG, maxRequestSize,
                ProducerConfig.LINGER_MS_CONFIG, 5));
        return new KafkaProducer<>(config, new StringSerializer(), new ByteArraySerializer());
    }
}
