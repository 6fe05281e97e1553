package dev.rayscale.planner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.rayscale.events.CloudEventHeaders;
import dev.rayscale.events.ScaleDecision;
import dev.rayscale.events.Topics;
import dev.rayscale.events.codec.EventCodec;
import dev.rayscale.events.codec.EventSchemas;
import dev.rayscale.testsupport.KafkaBrokerResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.kafka.InjectKafkaCompanion;
import io.smallrye.reactive.messaging.kafka.companion.KafkaCompanion;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

/**
 * A snapshot of 5,000 nodes and 100,000 demand entries (several MiB, as the collector publishes it: gzip, within the
 * topic's 1 MiB per batch) is planned, and its decision, which lists nearly all those shapes as ones no group can hold,
 * is published whole the same way, not dead-lettered for its size; and one expanding beyond any snapshot's bound is not read.
 */
@QuarkusTest
@WithTestResource(KafkaBrokerResource.class)
class BigSnapshotTest {

    private static final int WORKERS = 5_000;
    private static final int SHAPES = 100_000;
    /**
     * Shapes a new node can hold; the others ask more memory than a node of the group has. Packing tens of thousands of
     * distinct shapes onto new nodes takes the planner seconds (30,000 of them about 3 s, {@code docs/fleet-bench-log.md}),
     * which this test is not about: it is about the size of what goes through.
     */
    private static final int FEASIBLE = 1_000;
    private static final long GIB = 1L << 30;

    @InjectKafkaCompanion
    KafkaCompanion kafka;

    @Test
    void aFiveThousandNodeSnapshotIsPlannedAndItsLargeDecisionPublished() {
        String cluster = "planner-test/big-" + System.nanoTime();
        byte[] snapshot = snapshot(cluster);
        assertThat(snapshot.length).as("larger than Kafka's default record").isGreaterThan(1 << 20);
        var consumer = kafka.consume(String.class, byte[].class).fromTopics(Topics.DECISIONS);
        try {
            long sent = System.currentTimeMillis();
            kafka.produce(String.class, byte[].class)
                    .withProps(Map.of("compression.type", "gzip", "max.request.size", 33554432, "buffer.memory", 67108864))
                    .fromRecords(new ProducerRecord<>(Topics.SNAPSHOTS, cluster, snapshot)).awaitCompletion(Duration.ofSeconds(60));

            await().atMost(Duration.ofSeconds(90)).until(() -> consumer.getRecords().stream().anyMatch(r -> cluster.equals(r.key())));
            ConsumerRecord<String, byte[]> record = consumer.getRecords().stream().filter(r -> cluster.equals(r.key())).findFirst().orElseThrow();
            ScaleDecision decision = EventCodec.DECISIONS.decode(record.value());

            assertThat(decision.groups()).singleElement().satisfies(group -> assertThat(group.targetReplicas()).isGreaterThan(WORKERS));
            assertThat(decision.infeasible()).hasSize(SHAPES - FEASIBLE);
            System.out.printf("[big-cluster] snapshot %d bytes -> decision %d bytes (%d infeasible shapes), on the broker %d ms after "
                    + "the snapshot was sent%n", snapshot.length, record.value().length, decision.infeasible().size(), record.timestamp() - sent);
        } finally {
            consumer.close();
        }
    }

    /**
     * A decompression bomb: half a gigabyte of one repeated byte, which gzip makes a batch of about half a megabyte, within
     * the topic's 1 MiB. The Kafka client expands it before Rayscale sees it; the planner refuses it by its length, unparsed,
     * sets a prefix of it aside with the reason, and plans the next snapshot as usual.
     */
    @Test
    void aDecompressionBombIsSetAsideUnparsedAndTheNextSnapshotPlanned() {
        String bombKey = "planner-test/bomb-" + System.nanoTime();
        String cluster = "planner-test/after-bomb-" + System.nanoTime();
        byte[] bomb = new byte[512 << 20];
        Arrays.fill(bomb, (byte) ' ');
        bomb[0] = '{';
        bomb[bomb.length - 1] = '}';
        var consumer = kafka.consume(String.class, byte[].class).fromTopics(Topics.DECISIONS);
        RecordMetadata sent = null;
        try {
            sent = kafka.produce(String.class, byte[].class)
                    .withProps(Map.of("compression.type", "gzip", "max.request.size", 600 << 20, "buffer.memory", 700 << 20))
                    .fromRecords(new ProducerRecord<>(Topics.SNAPSHOTS, bombKey, bomb)).awaitCompletion(Duration.ofSeconds(60)).getFirstRecord();
            bomb = null;
            kafka.produce(String.class, byte[].class).fromRecords(new ProducerRecord<>(Topics.SNAPSHOTS, cluster, walkthrough(cluster)))
                    .awaitCompletion(Duration.ofSeconds(30));

            await().atMost(Duration.ofSeconds(90)).until(() -> consumer.getRecords().stream().anyMatch(r -> cluster.equals(r.key())));
            ConsumerRecord<String, byte[]> dead = kafka.consume(String.class, byte[].class)
                    .fromTopics(Topics.deadLetter("scaling-planner"), letters -> letters.select().where(r -> bombKey.equals(r.key())))
                    .awaitRecords(1, Duration.ofSeconds(30)).getRecords().get(0);
            assertThat(CloudEventHeaders.read(dead.headers(), "dead-letter-reason")).isEqualTo("invalid ClusterSnapshot: $: the record is "
                    + (512 << 20) + " bytes, above the " + EventCodec.MAX_EVENT_BYTES + " a ClusterSnapshot may have: not read");
            assertThat(CloudEventHeaders.read(dead.headers(), "dead-letter-truncated")).isEqualTo(String.valueOf(512 << 20));
        } finally {
            consumer.close();
            if (sent != null) {
                // Off the topic again: every later reader of a shared test broker's snapshots (the end-to-end tests' audit
                // trails among them) would have its Kafka client expand it, as a real reader would.
                kafka.deleteRecords(new TopicPartition(sent.topic(), sent.partition()), sent.offset() + 1);
            }
        }
    }

    private static byte[] walkthrough(String cluster) {
        return walkthroughDocument(cluster).toString().getBytes(StandardCharsets.UTF_8);
    }

    private static ObjectNode walkthroughDocument(String cluster) {
        ObjectNode document = (ObjectNode) EventSchemas.readResource("examples/cluster-snapshot/walkthrough.json");
        String[] name = cluster.split("/");
        document.withObject("cluster").put("namespace", name[0]).put("name", name[1]);
        document.put("id", cluster + "#1").put("sequence", 1).put("observedAt", Instant.now().toString());
        return document;
    }

    /** The walk-through snapshot grown to {@link #WORKERS} busy 8-CPU workers and {@link #SHAPES} pending task shapes. */
    private static byte[] snapshot(String cluster) {
        ObjectNode document = walkthroughDocument(cluster);
        String[] name = cluster.split("/");
        ObjectNode group = (ObjectNode) document.withArray("workerGroups").get(0);
        group.put("maxReplicas", 100_000).put("replicas", WORKERS);
        group.putObject("resources").put("CPU", 8).put("memory", 32 * GIB);
        ArrayNode nodes = document.withArray("nodes");
        for (int i = 0; i < WORKERS; i++) {
            ObjectNode node = nodes.addObject();
            node.put("nodeId", String.format("%056x", i + 1)).put("podName", name[1] + "-small-group-worker-" + i)
                    .put("group", "small-group").put("status", "RUNNING");
            node.putObject("total").put("CPU", 8).put("memory", 32 * GIB);
            node.putObject("available").put("CPU", 0).put("memory", 16 * GIB);
            node.put("idleDurationMs", 0).putObject("labels");
            node.put("ipAddress", "10.1." + (i / 250) + "." + (i % 250)).putArray("activity").add("busy");
        }
        ArrayNode tasks = document.withObject("demand").withArray("tasks");
        tasks.removeAll();
        for (int i = 0; i < SHAPES; i++) {
            ObjectNode task = tasks.addObject();
            task.putObject("shape").put("CPU", 1).put("memory", (i < FEASIBLE ? 0 : 32 * GIB) + (i + 1) * (1L << 20));
            task.put("count", 1 + i % 3).putArray("labelSelectors");
        }
        return document.toString().getBytes(StandardCharsets.UTF_8);
    }
}
