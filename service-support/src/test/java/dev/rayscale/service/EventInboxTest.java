package dev.rayscale.service;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.rayscale.events.CloudEventHeaders;
import dev.rayscale.events.EventType;
import dev.rayscale.events.ScaleDecision;
import dev.rayscale.events.codec.DecisionDeserializer;
import dev.rayscale.events.codec.EventCodec;
import dev.rayscale.events.codec.EventSchemas;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.smallrye.reactive.messaging.kafka.api.IncomingKafkaRecordMetadata;
import io.smallrye.reactive.messaging.kafka.api.OutgoingKafkaRecordMetadata;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.record.TimestampType;
import org.eclipse.microprofile.reactive.messaging.Emitter;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.eclipse.microprofile.reactive.messaging.Metadata;
import org.junit.jupiter.api.Test;

/** No single record stops a channel: whatever it is or whatever its handling throws, it is set aside and acknowledged. */
class EventInboxTest {

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final DeadLetterTopic topic = new DeadLetterTopic(1024 * 1024);
    private final EventInbox<ScaleDecision> inbox = new EventInbox<>(new DecisionDeserializer(), new DeadLetters(topic), registry, "test.decisions");

    @Test
    void aHandlerThatThrowsAnErrorSetsTheRecordAsideAndGoesOn() {
        Delivery delivery = deliver(decision(), headers(), "default/raycluster-autoscaler", d -> {
            throw new StackOverflowError("too deep");
        });

        assertThat(delivery.acked()).isTrue();
        assertThat(topic.reason()).isEqualTo("too deep");
        assertThat(registry.counter("test.decisions", "outcome", "failed").count()).isEqualTo(1);
    }

    @Test
    void anUnreadableRecordIsSetAsideWithTheReasonAndItsOrigin() {
        Delivery delivery = deliver("[[[[".getBytes(StandardCharsets.UTF_8), new RecordHeaders(), "k", d -> done());

        assertThat(delivery.acked()).isTrue();
        assertThat(topic.reason()).contains("ScaleDecision");
        assertThat(topic.header("dead-letter-topic")).isEqualTo("rayscale.decisions");
        assertThat(topic.header("dead-letter-offset")).isEqualTo("42");
        assertThat(registry.counter("test.decisions", "outcome", "invalid").count()).isEqualTo(1);
    }

    @Test
    void headersThatDisagreeWithTheEventOrAKeyThatIsNotItsClusterAreRefused() {
        RecordHeaders wrongVersion = headers();
        wrongVersion.remove(CloudEventHeaders.SPEC_VERSION);
        wrongVersion.add(CloudEventHeaders.SPEC_VERSION, "9.9".getBytes(StandardCharsets.UTF_8));
        deliver(decision(), wrongVersion, "default/raycluster-autoscaler", d -> done());
        assertThat(topic.reason()).contains("ce_specversion: expected 1.0, found 9.9");

        deliver(decision(), headers(), "other/cluster", d -> done());
        assertThat(topic.reason()).contains("record key: expected the cluster id default/raycluster-autoscaler, found other/cluster");
    }

    /** Just under the broker's 1 MiB: with its headers it cannot be written whole, yet it is set aside, cut, and the channel goes on. */
    @Test
    void aRecordTooLargeToBeSetAsideWholeIsSetAsideCut() {
        byte[] huge = new byte[1024 * 1024 - 100];
        Arrays.fill(huge, (byte) '{');

        Delivery delivery = deliver(huge, headers(), "default/raycluster-autoscaler", d -> done());

        assertThat(delivery.acked()).isTrue();
        assertThat(topic.values).singleElement().satisfies(value -> assertThat(value).hasSize(DeadLetters.PREFIX_BYTES));
        assertThat(topic.header("dead-letter-truncated")).isEqualTo(String.valueOf(huge.length));
        assertThat(topic.header(CloudEventHeaders.TYPE)).as("the original headers are kept").isEqualTo("dev.rayscale.decision.v1");
    }

    @Test
    void aRecordThatCannotBeSetAsideAtAllIsNotAcknowledged() {
        topic.down.set(true);

        Delivery delivery = deliver("not json".getBytes(StandardCharsets.UTF_8), headers(), "k", d -> done());

        assertThat(delivery.acked()).isFalse();
        assertThat(delivery.nacked()).isTrue();
    }

    /** A burst of bad records costs the good ones behind it little: dead letters are written side by side, each record acked once its own is. */
    @Test
    void deadLettersOnTheirWayDoNotHoldUpTheRecordsBehindUpToALimit() {
        topic.holding.set(true);
        List<AtomicBoolean> acks = new ArrayList<>();
        List<CompletionStage<Void>> stages = new ArrayList<>();
        for (int i = 0; i <= EventInbox.PIPELINED_DEAD_LETTERS; i++) {
            AtomicBoolean acked = new AtomicBoolean();
            acks.add(acked);
            stages.add(inbox.deliver(record("not json".getBytes(StandardCharsets.UTF_8), headers(), "k", acked, new AtomicBoolean()), d -> done()));
        }

        assertThat(stages.subList(0, EventInbox.PIPELINED_DEAD_LETTERS)).as("the channel moves on at once")
                .allSatisfy(stage -> assertThat(stage.toCompletableFuture()).isCompleted());
        assertThat(stages.get(EventInbox.PIPELINED_DEAD_LETTERS).toCompletableFuture()).as("past the limit, it waits").isNotCompleted();
        assertThat(acks).as("no record is acked before its dead letter is written").noneMatch(AtomicBoolean::get);

        topic.release();

        assertThat(acks).allMatch(AtomicBoolean::get);
        assertThat(stages.get(EventInbox.PIPELINED_DEAD_LETTERS).toCompletableFuture()).isCompleted();
    }

    /** A pipelined inbox lets the next records in while outputs are on their way, up to its depth; each record is acked once its own output is. */
    @Test
    void handledEventsFinishingDoNotHoldUpTheRecordsBehindUpToTheDepth() {
        EventInbox<ScaleDecision> pipelined = new EventInbox<>(new DecisionDeserializer(), new DeadLetters(topic), registry, "test.pipelined", 2);
        List<CompletableFuture<Void>> outputs = new ArrayList<>();
        List<AtomicBoolean> acks = new ArrayList<>();
        List<CompletionStage<Void>> stages = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            CompletableFuture<Void> output = new CompletableFuture<>();
            outputs.add(output);
            AtomicBoolean acked = new AtomicBoolean();
            acks.add(acked);
            stages.add(pipelined.deliver(record(decision(), headers(), "default/raycluster-autoscaler", acked, new AtomicBoolean()), d -> output));
        }

        assertThat(stages.subList(0, 2)).as("the channel moves on at once").allSatisfy(stage -> assertThat(stage.toCompletableFuture()).isCompleted());
        assertThat(stages.get(2).toCompletableFuture()).as("past the depth, it waits for its output").isNotCompleted();
        assertThat(acks).as("no record is acked before its output is out").noneMatch(AtomicBoolean::get);

        outputs.get(1).complete(null);
        assertThat(acks.get(1)).isTrue();
        assertThat(acks.get(0)).as("each record on its own output").isFalse();

        outputs.get(0).complete(null);
        outputs.get(2).complete(null);
        assertThat(acks).allMatch(AtomicBoolean::get);
        assertThat(stages.get(2).toCompletableFuture()).isCompleted();
        assertThat(registry.counter("test.pipelined", "outcome", "accepted").count()).isEqualTo(3);
    }

    /** Stopping waits for the records whose output or dead letter is still on its way, so that they are acknowledged before the consumer commits. */
    @Test
    void settlingWaitsForEveryOutputAndDeadLetterOnItsWay() {
        EventInbox<ScaleDecision> pipelined = new EventInbox<>(new DecisionDeserializer(), new DeadLetters(topic), registry, "test.settling", 2);
        CompletableFuture<Void> output = new CompletableFuture<>();
        AtomicBoolean handledAcked = new AtomicBoolean();
        AtomicBoolean setAsideAcked = new AtomicBoolean();
        topic.holding.set(true);
        pipelined.deliver(record(decision(), headers(), "default/raycluster-autoscaler", handledAcked, new AtomicBoolean()), d -> output);
        pipelined.deliver(record("not json".getBytes(StandardCharsets.UTF_8), headers(), "default/raycluster-autoscaler", setAsideAcked,
                new AtomicBoolean()), d -> done());

        assertThat(pipelined.settle(Duration.ofMillis(50))).as("an output and a dead letter on their way").isFalse();
        output.complete(null);
        assertThat(pipelined.settle(Duration.ofMillis(50))).as("the dead letter still on its way").isFalse();
        topic.release();

        assertThat(pipelined.settle(Duration.ofSeconds(30))).isTrue();
        assertThat(handledAcked).isTrue();
        assertThat(setAsideAcked).isTrue();
    }

    /** Both the outputs and the dead letters stalled: stopping waits for them within one patience, not one each. */
    @Test
    void settlingSharesOnePatienceBetweenOutputsAndDeadLetters() {
        EventInbox<ScaleDecision> pipelined = new EventInbox<>(new DecisionDeserializer(), new DeadLetters(topic), registry, "test.patience", 2);
        topic.holding.set(true);
        pipelined.deliver(record(decision(), headers(), "default/raycluster-autoscaler", new AtomicBoolean(), new AtomicBoolean()),
                d -> new CompletableFuture<Void>());
        pipelined.deliver(record("not json".getBytes(StandardCharsets.UTF_8), headers(), "default/raycluster-autoscaler", new AtomicBoolean(),
                new AtomicBoolean()), d -> done());

        Duration patience = Duration.ofMillis(600);
        long started = System.nanoTime();
        assertThat(pipelined.settle(patience)).isFalse();
        assertThat(Duration.ofNanos(System.nanoTime() - started)).as("one patience for both, not one after the other")
                .isGreaterThanOrEqualTo(patience).isLessThan(patience.multipliedBy(2));
        topic.release();
    }

    /**
     * A batch is read whole, in parallel, yet comes back in the records' order; each cluster's newest event is the one of
     * highest order, and a record that cannot be read is set aside when delivered even though a newer event of its
     * cluster supersedes it.
     */
    @Test
    void aBatchReadInParallelKeepsTheRecordsOrderAndSetsAsideWhatCannotBeRead() {
        String a = "default/raycluster-autoscaler";
        String b = "team-b/other";
        List<String> ids = new ArrayList<>();
        List<Message<byte[]>> batch = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            String cluster = i % 3 == 0 ? b : a;
            String id = "d-" + i;
            byte[] value = i % 7 == 3 ? "not json".getBytes(StandardCharsets.UTF_8) : decision(id, cluster, 1000 - i % 100);
            ids.add(i % 7 == 3 ? null : id);
            batch.add(record(value, new RecordHeaders(), cluster, new AtomicBoolean(), new AtomicBoolean()));
        }

        EventInbox.Batch<ScaleDecision> read = inbox.read(batch, ScaleDecision::snapshotSequence);
        read.reads().forEach(each -> inbox.deliver(each, decision -> done()).toCompletableFuture().join());

        assertThat(read.reads()).extracting(each -> each.event().map(ScaleDecision::id).orElse(null)).containsExactlyElementsOf(ids);
        assertThat(read.newestByCluster().get(a).id()).isEqualTo("d-100");
        assertThat(read.newestByCluster().get(b).id()).isEqualTo("d-0");
        assertThat(topic.values).hasSize((int) ids.stream().filter(Objects::isNull).count());
    }

    private record Delivery(boolean acked, boolean nacked) {
    }

    private Delivery deliver(byte[] value, Headers headers, String key, Function<ScaleDecision, CompletionStage<?>> handler) {
        AtomicBoolean acked = new AtomicBoolean();
        AtomicBoolean nacked = new AtomicBoolean();
        inbox.deliver(record(value, headers, key, acked, nacked), handler).toCompletableFuture().join();
        return new Delivery(acked.get(), nacked.get());
    }

    private static Message<byte[]> record(byte[] value, Headers headers, String key, AtomicBoolean acked, AtomicBoolean nacked) {
        IncomingKafkaRecordMetadata<String, byte[]> origin = new IncomingKafkaRecordMetadata<>(
                new ConsumerRecord<>("rayscale.decisions", 1, 42, 0L,
                        TimestampType.CREATE_TIME, 0, value.length, key, value, headers,
                        Optional.empty()), "decisions");
        return Message.of(value, Metadata.of(origin))
                .withAck(() -> {
                    acked.set(true);
                    return CompletableFuture.completedFuture(null);
                })
                .withNack(reason -> {
                    nacked.set(true);
                    return CompletableFuture.completedFuture(null);
                });
    }

    private static CompletionStage<Void> done() {
        return CompletableFuture.completedFuture(null);
    }

    private static byte[] decision() {
        return EventSchemas.readResource("examples/scale-decision/walkthrough.json").toString().getBytes(StandardCharsets.UTF_8);
    }

    /** The example decision with another id and snapshot sequence, of the cluster {@code namespace/name}. */
    private static byte[] decision(String id, String cluster, long snapshotSequence) {
        ObjectNode tree = (ObjectNode) EventSchemas.readResource("examples/scale-decision/walkthrough.json");
        tree.put("id", id);
        tree.put("snapshotSequence", snapshotSequence);
        ObjectNode ref = (ObjectNode) tree.get("cluster");
        ref.put("namespace", cluster.substring(0, cluster.indexOf('/')));
        ref.put("name", cluster.substring(cluster.indexOf('/') + 1));
        return tree.toString().getBytes(StandardCharsets.UTF_8);
    }

    private static RecordHeaders headers() {
        RecordHeaders headers = new RecordHeaders();
        CloudEventHeaders.addIfAbsent(headers, EventType.DECISION, EventCodec.DECISIONS.decode(decision()), "//rayscale.dev/scaling-planner");
        return headers;
    }

    /** A dead-letter topic with a broker's record size limit; it can also be down, or hold its answers until released. */
    private static final class DeadLetterTopic implements Emitter<byte[]> {
        private final int maxRecordBytes;
        final List<byte[]> values = new ArrayList<>();
        final List<Headers> headers = new ArrayList<>();
        final AtomicBoolean down = new AtomicBoolean();
        final AtomicBoolean holding = new AtomicBoolean();
        private final List<Message<?>> held = new ArrayList<>();

        void release() {
            holding.set(false);
            List.copyOf(held).forEach(Message::ack);
            held.clear();
        }

        DeadLetterTopic(int maxRecordBytes) {
            this.maxRecordBytes = maxRecordBytes;
        }

        String reason() {
            return header("dead-letter-reason");
        }

        String header(String name) {
            return CloudEventHeaders.read(headers.get(headers.size() - 1), name);
        }

        @Override
        public <M extends Message<? extends byte[]>> void send(M message) {
            Headers sent = message.getMetadata(OutgoingKafkaRecordMetadata.class).orElseThrow().getHeaders();
            int size = message.getPayload().length;
            for (var header : sent) {
                size += header.key().length() + (header.value() == null ? 0 : header.value().length);
            }
            if (holding.get()) {
                held.add(message);
            } else if (down.get()) {
                message.nack(new TimeoutException("no broker"));
            } else if (size > maxRecordBytes) {
                message.nack(new RecordTooLargeException("the record is " + size + " bytes"));
            } else {
                values.add(message.getPayload());
                headers.add(sent);
                message.ack();
            }
        }

        @Override
        public CompletionStage<Void> send(byte[] payload) {
            throw new UnsupportedOperationException();
        }

        @Override
        public void complete() {
        }

        @Override
        public void error(Exception e) {
        }

        @Override
        public boolean isCancelled() {
            return false;
        }

        @Override
        public boolean hasRequests() {
            return true;
        }
    }
}
