package dev.rayscale.planner;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.rayscale.events.CloudEventHeaders;
import dev.rayscale.events.ScaleDecision;
import dev.rayscale.events.Topics;
import dev.rayscale.events.codec.EventCodec;
import dev.rayscale.events.codec.EventJson;
import dev.rayscale.events.codec.EventSchemas;
import dev.rayscale.testsupport.KafkaBrokerResource;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.kafka.InjectKafkaCompanion;
import io.smallrye.reactive.messaging.kafka.api.IncomingKafkaRecordMetadata;
import io.smallrye.reactive.messaging.kafka.companion.KafkaCompanion;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.IntStream;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.record.TimestampType;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.eclipse.microprofile.reactive.messaging.Metadata;
import org.junit.jupiter.api.Test;

/** The planner service against a real broker: snapshots in, decisions out, poison to the dead-letter topic. */
@QuarkusTest
@WithTestResource(KafkaBrokerResource.class)
class PlannerServiceTest {

    @InjectKafkaCompanion
    KafkaCompanion kafka;

    @Inject
    SnapshotConsumer consumer;

    @Inject
    MeterRegistry registry;

    @Test
    void turnsTheWalkthroughSnapshotIntoADecisionForFifteenWorkers() {
        String cluster = unique("walkthrough");
        send(snapshot(cluster, 1, 15));

        ConsumerRecord<String, byte[]> record = decisionsFor(cluster, 1).get(0);
        ScaleDecision decision = EventCodec.DECISIONS.decode(record.value());
        assertThat(decision.groups()).singleElement().satisfies(group -> {
            assertThat(group.currentReplicas()).isZero();
            assertThat(group.targetReplicas()).isEqualTo(15);
        });
        assertThat(decision.snapshotSequence()).isEqualTo(1);
        assertThat(CloudEventHeaders.read(record.headers(), CloudEventHeaders.TYPE)).isEqualTo("dev.rayscale.decision.v1");
        assertThat(CloudEventHeaders.read(record.headers(), CloudEventHeaders.SOURCE)).isEqualTo("//rayscale.dev/scaling-planner");
        assertThat(CloudEventHeaders.read(record.headers(), CloudEventHeaders.SUBJECT)).isEqualTo(cluster);
    }

    @Test
    void publishesNothingForASnapshotThatChangesNothing() {
        String cluster = unique("steady");
        send(snapshot(cluster, 1, 0), snapshot(cluster, 2, 3));

        List<ConsumerRecord<String, byte[]>> decisions = decisionsFor(cluster, 1);
        assertThat(EventCodec.DECISIONS.decode(decisions.get(0).value()).snapshotSequence())
                .as("the first decision for the cluster comes from its second snapshot").isEqualTo(2);
    }

    /** Demand no node can take changes nothing, yet it must reach the GCS so that Ray shows it: its decision is published. */
    @Test
    void publishesADecisionThatOnlyReportsInfeasibleDemand() throws Exception {
        String cluster = unique("infeasible");
        ObjectNode document = (ObjectNode) EventJson.mapper().readTree(snapshot(cluster, 1, 0));
        ((ObjectNode) document.withObject("demand").withArray("tasks").addObject().put("count", 2)).putArray("labelSelectors");
        ((ObjectNode) document.withObject("demand").withArray("tasks").get(0)).putObject("shape").put("GPU", 1);
        send(document.toString().getBytes(StandardCharsets.UTF_8));

        ScaleDecision decision = EventCodec.DECISIONS.decode(decisionsFor(cluster, 1).get(0).value());
        assertThat(decision.changesAnything()).isFalse();
        assertThat(decision.infeasible()).singleElement().satisfies(infeasible -> assertThat(infeasible.count()).isEqualTo(2));
    }

    /** After a restart or a rebalance: snapshots older than a decision lives are not planned; the newest is. */
    @Test
    void skipsSnapshotsOlderThanTheDecisionTtl() throws Exception {
        String cluster = unique("backlog");
        ObjectNode old = (ObjectNode) EventJson.mapper().readTree(snapshot(cluster, 1, 5));
        old.put("observedAt", Instant.now().minusSeconds(3600).toString());
        send(old.toString().getBytes(StandardCharsets.UTF_8), snapshot(cluster, 2, 7));

        ScaleDecision decision = EventCodec.DECISIONS.decode(decisionsFor(cluster, 1).get(0).value());
        assertThat(decision.snapshotSequence()).isEqualTo(2);
        assertThat(decision.groups().get(0).targetReplicas()).isEqualTo(7);
        given().get("/q/metrics").then().statusCode(200)
                .body(org.hamcrest.Matchers.matchesPattern("(?s).*rayscale_planner_snapshots_skipped_total\\{reason=\"expired\"} [1-9].*"));
    }

    /** A backlog delivered together (a planner behind a fleet): only the newest snapshot of the cluster is planned. */
    @Test
    void ofAClustersSnapshotsDeliveredTogetherOnlyTheNewestIsPlanned() {
        String cluster = unique("batch");
        List<AtomicBoolean> acked = new ArrayList<>();
        double supersededBefore = registry.counter("rayscale.planner.snapshots.skipped", "reason", "superseded").count();

        consumer.handle(IntStream.rangeClosed(1, 3).mapToObj(sequence -> {
            AtomicBoolean ack = new AtomicBoolean();
            acked.add(ack);
            return record(snapshot(cluster, sequence, 4 + sequence), ack);
        }).toList());

        // Each is acknowledged only once its decision (if any) is on the broker: then the topic holds all there will be.
        await().atMost(Duration.ofSeconds(30)).until(() -> acked.stream().allMatch(AtomicBoolean::get));
        assertThat(decisionsFor(cluster, 1)).singleElement().satisfies(record -> {
            ScaleDecision decision = EventCodec.DECISIONS.decode(record.value());
            assertThat(decision.snapshotSequence()).isEqualTo(3);
            assertThat(decision.groups().get(0).targetReplicas()).isEqualTo(7);
        });
        // At least this batch's two (the channel may meanwhile skip snapshots other tests left on the topic).
        assertThat(registry.counter("rayscale.planner.snapshots.skipped", "reason", "superseded").count() - supersededBefore)
                .isGreaterThanOrEqualTo(2);
    }

    /** A snapshot as the channel delivers it, acknowledged into {@code acked}. */
    private static Message<byte[]> record(byte[] snapshot,
            AtomicBoolean acked) {
        var origin = new IncomingKafkaRecordMetadata<>(new ConsumerRecord<>(Topics.SNAPSHOTS, 0,
                0L, 0L, TimestampType.CREATE_TIME, 0, snapshot.length,
                EventCodec.SNAPSHOTS.decode(snapshot).cluster().id(), snapshot, new RecordHeaders(),
                Optional.empty()), "snapshots");
        return Message.of(snapshot, Metadata.of(origin))
                .withAck(() -> {
                    acked.set(true);
                    return CompletableFuture.completedFuture(null);
                });
    }

    @Test
    void sendsPoisonToTheDeadLetterTopicAndGoesOn() {
        String cluster = unique("after-poison");
        String poisonKey = unique("poison");
        kafka.produce(String.class, byte[].class).fromRecords(
                new ProducerRecord<>(Topics.SNAPSHOTS, poisonKey, "{\"schemaVersion\": 9}".getBytes(StandardCharsets.UTF_8)),
                new ProducerRecord<>(Topics.SNAPSHOTS, cluster, snapshot(cluster, 1, 2)));

        assertThat(decisionsFor(cluster, 1)).hasSize(1);
        // Only this test's letter: a broker that outlives the test run holds the letters of earlier runs too.
        ConsumerRecord<String, byte[]> dead = kafka.consume(String.class, byte[].class)
                .fromTopics(Topics.deadLetter("scaling-planner"), letters -> letters.select().where(r -> poisonKey.equals(r.key())))
                .awaitRecords(1, Duration.ofSeconds(30)).getRecords().get(0);
        assertThat(CloudEventHeaders.read(dead.headers(), "dead-letter-reason"))
                .isEqualTo("invalid ClusterSnapshot: $.schemaVersion: schema version 9 is not supported; this reader knows version 1");
    }

    @Test
    void exposesHealthAndMetrics() {
        given().get("/q/health/ready").then().statusCode(200).body(containsString("Kafka"));
        given().get("/q/metrics").then().statusCode(200)
                .body(containsString("rayscale_planner_snapshots_total"))
                .body(containsString("rayscale_planner_plan_duration_seconds"));
    }

    private void send(byte[]... snapshots) {
        for (byte[] snapshot : snapshots) {
            String key = EventCodec.SNAPSHOTS.decode(snapshot).cluster().id();
            kafka.produce(String.class, byte[].class).fromRecords(new ProducerRecord<>(Topics.SNAPSHOTS, key, snapshot))
                    .awaitCompletion(Duration.ofSeconds(30));
        }
    }

    /** Waits for {@code count} decisions keyed by {@code cluster}, reading the topic from its beginning. */
    private List<ConsumerRecord<String, byte[]>> decisionsFor(String cluster, int count) {
        var consumer = kafka.consume(String.class, byte[].class).fromTopics(Topics.DECISIONS);
        try {
            await().atMost(Duration.ofSeconds(30))
                    .until(() -> consumer.getRecords().stream().filter(r -> cluster.equals(r.key())).count() >= count);
            return consumer.getRecords().stream().filter(r -> cluster.equals(r.key())).toList();
        } finally {
            consumer.close();
        }
    }

    /** The walk-through snapshot for a cluster of its own, with {@code tasks} pending one-CPU tasks. */
    private static byte[] snapshot(String cluster, long sequence, int tasks) {
        ObjectNode document = (ObjectNode) EventSchemas.readResource("examples/cluster-snapshot/walkthrough.json");
        String[] name = cluster.split("/");
        document.withObject("cluster").put("namespace", name[0]).put("name", name[1]);
        document.put("id", cluster + "#" + sequence).put("sequence", sequence).put("observedAt", Instant.now().toString());
        var taskList = document.withObject("demand").withArray("tasks");
        taskList.removeAll();
        if (tasks > 0) {
            taskList.addObject().put("count", tasks).putArray("labelSelectors");
            ((ObjectNode) taskList.get(0)).putObject("shape").put("CPU", 1);
        }
        return document.toString().getBytes(StandardCharsets.UTF_8);
    }

    private static String unique(String name) {
        return "planner-test/" + name + "-" + System.nanoTime();
    }
}
