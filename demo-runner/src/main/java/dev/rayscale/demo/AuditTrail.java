package dev.rayscale.demo;

import dev.rayscale.events.ActuationResult;
import dev.rayscale.events.ClusterSnapshot;
import dev.rayscale.events.ClusterVersions;
import dev.rayscale.events.RayscaleEvent;
import dev.rayscale.events.ScaleDecision;
import dev.rayscale.events.Topics;
import dev.rayscale.events.codec.ActuationDeserializer;
import dev.rayscale.events.codec.DecisionDeserializer;
import dev.rayscale.events.codec.EventDeserializer;
import dev.rayscale.events.codec.SnapshotDeserializer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * Everything Rayscale said about one cluster, read back from its topics as any other Kafka consumer
 * would: the snapshots, the decisions and the actuation results, in order, and what the planner and the
 * actuator set aside on their dead-letter topics. It reads records as the services do (CloudEvents
 * headers checked, the key matching the event's cluster) and counts the ones it cannot read rather than
 * stopping at them.
 */
public final class AuditTrail implements AutoCloseable {

    /** A record a service set aside: where it came from, why, and the poison kind it was written as, if any. */
    public record DeadLetter(String topic, int partition, long offset, String reason, String cause, String poisonKind) {
    }

    private static final List<String> DEAD_LETTER_TOPICS = List.of(Topics.deadLetter("scaling-planner"), Topics.deadLetter("k8s-actuator"));

    private final String clusterId;
    private final KafkaConsumer<String, byte[]> consumer;
    private final Thread reader;
    private final List<String> snapshotIds = new CopyOnWriteArrayList<>();
    private final List<ScaleDecision> decisions = new CopyOnWriteArrayList<>();
    private final List<ActuationResult> actuations = new CopyOnWriteArrayList<>();
    private final List<DeadLetter> deadLetters = new CopyOnWriteArrayList<>();
    private final Set<String> seen = new HashSet<>();
    private final Map<String, EventDeserializer<?>> readers = Map.of(Topics.SNAPSHOTS, new SnapshotDeserializer(),
            Topics.DECISIONS, new DecisionDeserializer(), Topics.ACTUATIONS, new ActuationDeserializer());
    private final Consumer<ScaleDecision> onDecision;
    private final Consumer<ActuationResult> onActuation;
    private volatile Instant lastSnapshotAt = Instant.EPOCH;
    private volatile ClusterVersions versions;
    private volatile long unreadable;
    private volatile boolean running = true;

    public AuditTrail(String bootstrapServers, String clusterId, Consumer<ScaleDecision> onDecision, Consumer<ActuationResult> onActuation) {
        this.clusterId = clusterId;
        this.onDecision = onDecision;
        this.onActuation = onActuation;
        Properties config = new Properties();
        config.putAll(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false"));
        this.consumer = new KafkaConsumer<>(config, new StringDeserializer(), new ByteArrayDeserializer());
        // Partitions assigned, not subscribed: no group, so no rebalance (a broker restart makes one) sends the reader back to the start.
        List<TopicPartition> partitions = new ArrayList<>();
        for (String topic : List.of(Topics.SNAPSHOTS, Topics.DECISIONS, Topics.ACTUATIONS, DEAD_LETTER_TOPICS.get(0), DEAD_LETTER_TOPICS.get(1))) {
            consumer.partitionsFor(topic, Duration.ofSeconds(30)).forEach(info -> partitions.add(new TopicPartition(topic, info.partition())));
        }
        consumer.assign(partitions);
        consumer.seekToBeginning(partitions);
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
        if (DEAD_LETTER_TOPICS.contains(record.topic())) {
            Headers headers = record.headers();
            deadLetters.add(new DeadLetter(text(headers, "dead-letter-topic"), (int) number(headers, "dead-letter-partition"),
                    number(headers, "dead-letter-offset"), text(headers, "dead-letter-reason"), text(headers, "dead-letter-cause"),
                    text(headers, Poison.HEADER)));
            return;
        }
        RayscaleEvent event;
        try {
            event = readers.get(record.topic()).deserialize(record.topic(), record.headers(), record.value());
            if (!clusterId.equals(event.cluster().id())) {
                throw new IllegalArgumentException("the key names another cluster than the event");
            }
        } catch (RuntimeException | StackOverflowError unreadable) {
            this.unreadable++;
            return;
        }
        if (!seen.add(event.id())) {
            return;  // the same event again (a producer's retry): one event
        }
        if (event instanceof ClusterSnapshot snapshot) {
            snapshotIds.add(snapshot.id());
            lastSnapshotAt = snapshot.observedAt();
            versions = snapshot.versions() != null ? snapshot.versions() : versions;
        } else if (event instanceof ScaleDecision decision) {
            decisions.add(decision);
            onDecision.accept(decision);
        } else if (event instanceof ActuationResult result) {
            actuations.add(result);
            onActuation.accept(result);
        }
    }

    /** A numeric header, or -1 if it is missing or not a number. */
    private static long number(Headers headers, String key) {
        try {
            return Long.parseLong(text(headers, key));
        } catch (NumberFormatException missing) {
            return -1;
        }
    }

    private static String text(Headers headers, String key) {
        Header header = headers.lastHeader(key);
        return header == null || header.value() == null ? null : new String(header.value(), StandardCharsets.UTF_8);
    }

    public List<String> snapshotIds() {
        return List.copyOf(snapshotIds);
    }

    /** When the newest snapshot read was observed by the collector. */
    public Instant lastSnapshotAt() {
        return lastSnapshotAt;
    }

    /** The versions the newest snapshot that said them said; null before any. */
    public ClusterVersions versions() {
        return versions;
    }

    public List<ScaleDecision> decisions() {
        return List.copyOf(decisions);
    }

    public List<ActuationResult> actuations() {
        return List.copyOf(actuations);
    }

    /** What the planner and the actuator set aside for this cluster. */
    public List<DeadLetter> deadLetters() {
        return List.copyOf(deadLetters);
    }

    /** Records under this cluster's key that are not valid events (as the services would judge them). */
    public long unreadable() {
        return unreadable;
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
