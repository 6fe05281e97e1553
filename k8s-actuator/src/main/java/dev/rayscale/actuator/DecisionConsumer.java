package dev.rayscale.actuator;

import dev.rayscale.events.ActuationResult;
import dev.rayscale.events.ScaleDecision;
import dev.rayscale.events.codec.DecisionDeserializer;
import dev.rayscale.service.DeadLetters;
import dev.rayscale.service.EventInbox;
import dev.rayscale.service.EventOutbox;
import io.micrometer.core.instrument.MeterRegistry;
import io.smallrye.reactive.messaging.annotations.Blocking;
import jakarta.enterprise.context.ApplicationScoped;
import io.smallrye.reactive.messaging.kafka.KafkaRecordBatch;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.eclipse.microprofile.reactive.messaging.Channel;
import org.eclipse.microprofile.reactive.messaging.Emitter;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.eclipse.microprofile.reactive.messaging.Message;

/**
 * The actuator service: each decision from {@code rayscale.decisions} is applied and its result
 * published to {@code rayscale.actuations}; the decision's offset is committed only once the result is
 * on the broker. One cluster's decisions are handled in order (one key, one partition). What cannot be
 * read goes to {@code rayscale.k8s-actuator.dlq}.
 *
 * <p>Decisions come in the batches the broker returns. After an outage a cluster's decisions queue up
 * (the planner decides on every snapshot); of those delivered together, only the newest is applied,
 * and the older ones are answered STALE, superseded, without a call to the API server or the GCS.
 */
@ApplicationScoped
public class DecisionConsumer {

    /**
     * Results that may be on their way to the broker while the next decisions are applied: the next decision's
     * API calls need not wait for the broker's acknowledgement of the last result. Each decision is acknowledged
     * only once its result is on the broker; a cluster's results leave in the order its decisions were applied.
     */
    static final int PIPELINED_RESULTS = 64;

    private final EventInbox<ScaleDecision> inbox;
    private final EventOutbox<ActuationResult> outbox;
    private final ActuationService actuation;

    public DecisionConsumer(MeterRegistry registry, ActuationService actuation,
            @Channel(ActuatorChannels.ACTUATIONS) Emitter<ActuationResult> results,
            @Channel(ActuatorChannels.DEAD_LETTERS) Emitter<byte[]> deadLetters) {
        this.inbox = new EventInbox<>(new DecisionDeserializer(), new DeadLetters(deadLetters), registry, "rayscale.actuator.decisions",
                PIPELINED_RESULTS);
        this.outbox = new EventOutbox<>(results);
        this.actuation = actuation;
    }

    @Incoming(ActuatorChannels.DECISIONS)
    @Blocking(ordered = true)
    public CompletionStage<Void> consume(KafkaRecordBatch<String, byte[]> batch) {
        handle(batch.getRecords());
        return CompletableFuture.completedFuture(null);
    }

    /** Handles records in order, each acknowledged once its result is on the broker (or it is set aside). */
    void handle(List<? extends Message<byte[]>> records) {
        Map<String, ScaleDecision> newest = new HashMap<>();
        for (Message<byte[]> record : records) {
            inbox.peek(record).ifPresent(decision -> newest.merge(decision.cluster().id(), decision,
                    (a, b) -> b.snapshotSequence() > a.snapshotSequence() ? b : a));
        }
        for (Message<byte[]> record : records) {
            inbox.deliver(record, decision -> outbox.publish(actuation.apply(decision, newest.get(decision.cluster().id()))))
                    .toCompletableFuture().join();
        }
    }
}
