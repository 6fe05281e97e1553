package dev.rayscale.sim.demo;

import dev.rayscale.events.ActuationResult;
import dev.rayscale.events.ScaleDecision;
import dev.rayscale.events.Topics;
import dev.rayscale.events.codec.EventCodec;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * Everything Rayscale said about one cluster, read back from its topics as any other Kafka consumer
 * would: the snapshot ids, the decisions and the actuation results, in order.
 */
public final class AuditTrail implements AutoCloseable {

    private final String clusterId;
    private final KafkaConsumer<String, byte[]> consumer;
    private final Thread reader;
    private final List<String> snapshotIds = new CopyOnWriteArrayList<>();
    private final List<ScaleDecision> decisions = new CopyOnWriteArrayList<>();
    private final List<ActuationResult> actuations = new CopyOnWriteArrayList<>();
    private final Consumer<ScaleDecision> onDecision;
    private final Consumer<ActuationResult> onActuation;
    private volatile boolean running = true;

    public AuditTrail(String bootstrapServers, String clusterId, Consumer<ScaleDecision> onDecision, Consumer<ActuationResult> onActuation) {
        this.clusterId = clusterId;
        this.onDecision = onDecision;
        this.onActuation = onActuation;
        Properties config = new Properties();
        config.putAll(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                ConsumerConfig.GROUP_ID_CONFIG, "rayscale-audit-" + UUID.randomUUID(),
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest",
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false"));
        this.consumer = new KafkaConsumer<>(config, new StringDeserializer(), new ByteArrayDeserializer());
        consumer.subscribe(List.of(Topics.SNAPSHOTS, Topics.DECISIONS, Topics.ACTUATIONS));
        this.reader = new Thread(this::read, "audit-trail");
        reader.setDaemon(true);
        reader.start();
    }

    private void read() {
        try {
            while (running) {
                for (ConsumerRecord<String, byte[]> record : consumer.poll(Duration.ofMillis(200))) {
                    if (clusterId.equals(record.key())) {
                        take(record);
                    }
                }
            }
        } catch (WakeupException stopping) {
            // closing
        } finally {
            consumer.close();
        }
    }

    private void take(ConsumerRecord<String, byte[]> record) {
        switch (record.topic()) {
            case Topics.SNAPSHOTS -> snapshotIds.add(EventCodec.SNAPSHOTS.decode(record.value()).id());
            case Topics.DECISIONS -> {
                ScaleDecision decision = EventCodec.DECISIONS.decode(record.value());
                decisions.add(decision);
                onDecision.accept(decision);
            }
            case Topics.ACTUATIONS -> {
                ActuationResult result = EventCodec.ACTUATIONS.decode(record.value());
                actuations.add(result);
                onActuation.accept(result);
            }
            default -> { }
        }
    }

    public List<String> snapshotIds() {
        return List.copyOf(snapshotIds);
    }

    public List<ScaleDecision> decisions() {
        return List.copyOf(decisions);
    }

    public List<ActuationResult> actuations() {
        return List.copyOf(actuations);
    }

    @Override
    public void close() {
        running = false;
        consumer.wakeup();
        try {
            reader.join(5_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
