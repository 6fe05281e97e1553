package dev.rayscale.service;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rayscale.events.ScaleDecision;
import dev.rayscale.events.codec.DecisionDeserializer;
import dev.rayscale.events.codec.EventSchemas;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.junit.jupiter.api.Test;

/** No single record stops a channel: whatever its handler throws, Errors included, the record is nacked and counted. */
class EventInboxTest {

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final EventInbox<ScaleDecision> inbox = new EventInbox<>(new DecisionDeserializer(), registry, "test.decisions");

    @Test
    void aHandlerThatThrowsAnErrorNacksTheRecord() {
        AtomicReference<Throwable> nacked = new AtomicReference<>();
        Message<byte[]> record = Message.of(decision())
                .withAck(() -> CompletableFuture.completedFuture(null))
                .withNack(reason -> {
                    nacked.set(reason);
                    return CompletableFuture.completedFuture(null);
                });

        inbox.deliver(record, decision -> {
            throw new StackOverflowError("too deep");
        }).toCompletableFuture().join();

        assertThat(nacked.get()).isInstanceOf(StackOverflowError.class);
        assertThat(registry.counter("test.decisions", "outcome", "failed").count()).isEqualTo(1);
    }

    @Test
    void anUnreadableRecordIsNackedWithTheReason() {
        AtomicReference<Throwable> nacked = new AtomicReference<>();
        Message<byte[]> record = Message.of("[[[[".getBytes(StandardCharsets.UTF_8))
                .withNack(reason -> {
                    nacked.set(reason);
                    return CompletableFuture.completedFuture(null);
                });

        inbox.deliver(record, decision -> CompletableFuture.completedFuture(null)).toCompletableFuture().join();

        assertThat(nacked.get()).hasMessageContaining("ScaleDecision");
        assertThat(registry.counter("test.decisions", "outcome", "invalid").count()).isEqualTo(1);
    }

    private static byte[] decision() {
        return EventSchemas.readResource("examples/scale-decision/walkthrough.json").toString().getBytes(StandardCharsets.UTF_8);
    }
}
