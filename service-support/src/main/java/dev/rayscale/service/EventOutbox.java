package dev.rayscale.service;

import dev.rayscale.events.RayscaleEvent;
import io.smallrye.reactive.messaging.kafka.api.OutgoingKafkaRecordMetadata;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.eclipse.microprofile.reactive.messaging.Emitter;
import org.eclipse.microprofile.reactive.messaging.Message;

/**
 * Publishes events keyed by their cluster id ({@code namespace/name}), so that one cluster's events
 * stay in order on one partition. Completes when the broker has the record.
 */
public final class EventOutbox<T extends RayscaleEvent> {

    private final Emitter<T> emitter;

    public EventOutbox(Emitter<T> emitter) {
        this.emitter = emitter;
    }

    public CompletionStage<Void> publish(T event) {
        return send(emitter, Message.of(event).addMetadata(OutgoingKafkaRecordMetadata.<String>builder().withKey(event.cluster().id()).build()));
    }

    /** Sends {@code message}; completes when the broker has it, or exceptionally when it could not be sent. */
    static <P> CompletableFuture<Void> send(Emitter<P> emitter, Message<P> message) {
        CompletableFuture<Void> sent = new CompletableFuture<>();
        emitter.send(message
                .withAck(() -> {
                    sent.complete(null);
                    return CompletableFuture.completedFuture(null);
                })
                .withNack(failure -> {
                    sent.completeExceptionally(failure);
                    return CompletableFuture.completedFuture(null);
                }));
        return sent;
    }
}
