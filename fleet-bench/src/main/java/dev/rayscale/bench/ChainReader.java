package dev.rayscale.bench;

import dev.rayscale.events.ActuationResult;
import dev.rayscale.events.CloudEventHeaders;
import dev.rayscale.events.ClusterSnapshot;
import dev.rayscale.events.PlannerInfo;
import dev.rayscale.events.ReasonCode;
import dev.rayscale.events.ScaleDecision;
import dev.rayscale.events.Topics;
import dev.rayscale.events.codec.ActuationDeserializer;
import dev.rayscale.events.codec.DecisionDeserializer;
import dev.rayscale.events.codec.SnapshotDeserializer;
import dev.rayscale.planner.core.Planner;
import dev.rayscale.planner.core.PlannerSettings;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.jboss.logging.Logger;

/**
 * Reads the snapshots, decisions and actuation results from now on, as any Kafka consumer of Rayscale's
 * topics would (no group: every partition assigned), into a {@link Chain}. A snapshot counts as
 * published when the collector handed it to its producer (the record's timestamp), a decision likewise,
 * a result when the actuator completed it. It keeps each cluster's newest snapshot, to tell a change the planner holds
 * back on purpose from one lost ({@link #waitsForLaunches}), and after the run reads back the snapshots that first saw a
 * change and brought no decision, to tell which of them the planner answered by changing nothing ({@link #changingNothing}).
 */
final class ChainReader implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(ChainReader.class);
    /**
     * Records are read without the JSON Schema check (the services that read them check it): the bench's reader shares
     * the machine with what it measures, and the check was most of its CPU (0.1 of a core at 100 changes/s). For decisions
     * and results the JSON, the schema version, the records' own field checks and the CloudEvents headers still apply;
     * snapshots, the most of its records, are read only as far as the bench follows them ({@link SnapshotStamp}), so a
     * snapshot counts as unreadable here only if that much of it cannot be read.
     */
    private static final boolean STRICT = false;
    private static final Duration READ_BACK_PATIENCE = Duration.ofMinutes(3);

    private final String bootstrapServers;
    private final KafkaConsumer<String, byte[]> consumer;
    /** Where the snapshots of the run begin, to read some of them back after it. */
    private final Map<TopicPartition, Long> snapshotsFrom = new HashMap<>();
    private final Chain chain;
    private final Thread thread;
    private final DecisionDeserializer decisions = new DecisionDeserializer();
    private final ActuationDeserializer actuations = new ActuationDeserializer();
    private final AtomicLong unreadable = new AtomicLong();
    /** Each cluster's newest snapshot, as its record: bound only when the bench plans it ({@link #waitsForLaunches}). */
    private final Map<String, Newest> newest = new ConcurrentHashMap<>();
    /** Its own deserializer: the reading thread goes on meanwhile. */
    private final SnapshotDeserializer snapshots = new SnapshotDeserializer();
    /** The planner the newest decision says made it, made again only when what it says changes. */
    private volatile Recorded recorded;
    private volatile boolean running = true;

    ChainReader(String bootstrapServers, Chain chain) {
        this.chain = chain;
        this.bootstrapServers = bootstrapServers;
        this.consumer = consumer(bootstrapServers);
        List<TopicPartition> partitions = new ArrayList<>();
        for (String topic : List.of(Topics.SNAPSHOTS, Topics.DECISIONS, Topics.ACTUATIONS)) {
            consumer.partitionsFor(topic, Duration.ofSeconds(30)).forEach(info -> partitions.add(new TopicPartition(topic, info.partition())));
        }
        consumer.assign(partitions);
        consumer.seekToEnd(partitions);
        partitions.stream().filter(partition -> partition.topic().equals(Topics.SNAPSHOTS))
                .forEach(partition -> snapshotsFrom.put(partition, consumer.position(partition)));
        partitions.forEach(consumer::position);
        this.thread = new Thread(this::read, "fleet-chain-reader");
        thread.setDaemon(true);
        thread.start();
    }

    /** Records that were not Rayscale events of the topic's type. */
    long unreadable() {
        return unreadable.get();
    }

    /**
     * True if the planner, given the cluster's newest snapshot, asks for nothing now because launches it asked for
     * earlier are still pending (the upscaling limit: {@code maxPendingLaunches} per cluster, as Ray's autoscaler caps
     * them): the cluster's demand waits for its own pods to come up, not for Rayscale. Planned here with the settings
     * the service's decisions recorded, by the same planner.
     */
    boolean waitsForLaunches(String cluster) {
        Newest snapshot = newest.get(cluster);
        Recorded seen = recorded;
        if (snapshot == null || seen == null) {
            return false;
        }
        try {
            return waitsForLaunches(snapshots.read(snapshot.headers(), snapshot.value(), STRICT), seen.planner());
        } catch (RuntimeException unreadable) {
            return false;
        }
    }

    /** A cluster's newest snapshot read so far: its sequence, and its record to read it whole when it is planned. */
    private record Newest(long sequence, Headers headers, byte[] value) {
    }

    /** What a decision says of the planner that made it (its settings included), and that planner made again. */
    private record Recorded(PlannerInfo info, Planner planner) {
    }

    /** The planner a decision's {@link PlannerInfo} describes: its version with the settings it recorded. */
    static Planner plannerOf(PlannerInfo info) {
        return new Planner(PlannerSettings.of(info.defaults(), info.version()));
    }

    /** True if {@code planner} asks for nothing on {@code snapshot}, pending launches holding its tasks back. */
    static boolean waitsForLaunches(ClusterSnapshot snapshot, Planner planner) {
        ScaleDecision decision = planner.plan(snapshot);
        return !decision.worthPublishing() && decision.codedReasons().stream().anyMatch(reason -> reason.code() == ReasonCode.UPSCALING_LIMITED);
    }

    /** True if {@code planner}'s answer to {@code snapshot} changes nothing: the planner service publishes no decision for it. */
    static boolean changesNothing(ClusterSnapshot snapshot, Planner planner) {
        return !planner.plan(snapshot).worthPublishing();
    }

    /**
     * Of the snapshots {@code ids} names, those the planner answers by changing nothing, planned again as the service
     * planned them (the planner is deterministic) with the settings its decisions recorded; none if no decision was
     * read. Reads the run's snapshots back from the broker, after the run, so as not to load the machine during it.
     */
    Set<String> changingNothing(Set<String> ids) {
        Recorded seen = recorded;
        Set<String> changingNothing = new HashSet<>();
        if (ids.isEmpty() || seen == null) {
            return changingNothing;
        }
        // Its own deserializer: the reading thread goes on meanwhile.
        SnapshotDeserializer reader = new SnapshotDeserializer();
        long deadline = System.nanoTime() + READ_BACK_PATIENCE.toNanos();
        int planned = 0;
        try (KafkaConsumer<String, byte[]> back = consumer(bootstrapServers)) {
            back.assign(snapshotsFrom.keySet());
            snapshotsFrom.forEach(back::seek);
            Map<TopicPartition, Long> end = back.endOffsets(snapshotsFrom.keySet());
            while (end.entrySet().stream().anyMatch(partition -> back.position(partition.getKey()) < partition.getValue())) {
                if (System.nanoTime() > deadline) {
                    LOG.warnf("the run's snapshots could not all be read back within %s: %d of %d planned again", READ_BACK_PATIENCE,
                            planned, ids.size());
                    break;
                }
                for (ConsumerRecord<String, byte[]> record : back.poll(Duration.ofMillis(500))) {
                    String id = CloudEventHeaders.read(record.headers(), CloudEventHeaders.ID);
                    if (ids.contains(id)) {
                        planned++;
                        if (changesNothing(reader, record, seen.planner())) {
                            changingNothing.add(id);
                        }
                    }
                }
            }
        }
        return changingNothing;
    }

    /** Whether the planner changes nothing on the record's snapshot; false for a record that cannot be read (counted as it was read first). */
    private static boolean changesNothing(SnapshotDeserializer reader, ConsumerRecord<String, byte[]> record, Planner planner) {
        try {
            return changesNothing(reader.read(record.headers(), record.value(), STRICT), planner);
        } catch (RuntimeException unreadableRecord) {
            return false;
        }
    }

    private static KafkaConsumer<String, byte[]> consumer(String bootstrapServers) {
        return new KafkaConsumer<>(Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false", ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, String.valueOf(8 << 20)),
                new StringDeserializer(), new ByteArrayDeserializer());
    }

    private void read() {
        try {
            while (running) {
                for (ConsumerRecord<String, byte[]> record : consumer.poll(Duration.ofMillis(200))) {
                    take(record);
                }
            }
        } catch (WakeupException closing) {
            // close() ends the loop
        } finally {
            consumer.close(Duration.ofSeconds(2));
        }
    }

    private void take(ConsumerRecord<String, byte[]> record) {
        try {
            switch (record.topic()) {
                case Topics.SNAPSHOTS -> {
                    SnapshotStamp stamp = SnapshotStamp.of(record.value());
                    String cluster = record.key();
                    if (cluster == null) {
                        throw new IllegalArgumentException("a snapshot without its cluster as the record's key");
                    }
                    newest.merge(cluster, new Newest(stamp.sequence(), record.headers(), record.value()),
                            (kept, read) -> read.sequence() > kept.sequence() ? read : kept);
                    if (stamp.stateVersion() != null) {
                        chain.snapshot(stamp.id(), new Chain.Snapshot(cluster, stamp.stateVersion(), stamp.observedAtMillis(), record.timestamp()));
                    }
                }
                case Topics.DECISIONS -> {
                    ScaleDecision decision = decisions.read(record.headers(), record.value(), STRICT);
                    chain.decision(decision.id(), new Chain.Decision(decision.snapshotId(), record.timestamp(), decision.grows()));
                    PlannerInfo info = decision.planner();
                    Recorded seen = recorded;
                    if (info != null && info.defaults() != null && (seen == null || !info.equals(seen.info()))) {
                        recorded = new Recorded(info, plannerOf(info));
                    }
                }
                default -> {
                    ActuationResult result = actuations.read(record.headers(), record.value(), STRICT);
                    if (!result.dryRun()) {
                        chain.result(new Chain.Result(result.decisionId(), result.outcome(), result.receivedAt().toEpochMilli(),
                                result.completedAt().toEpochMilli()));
                    }
                }
            }
        } catch (RuntimeException unreadableRecord) {
            unreadable.incrementAndGet();
            LOG.warnf("%s-%d@%d is not a readable Rayscale event: %s", record.topic(), record.partition(), record.offset(),
                    unreadableRecord.getMessage());
        }
    }

    @Override
    public void close() {
        running = false;
        consumer.wakeup();
        try {
            thread.join(5000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
