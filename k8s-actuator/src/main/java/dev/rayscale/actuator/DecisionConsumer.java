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
 */
@ApplicationScoped
public class DecisionConsumer {

    private final EventInbox<ScaleDecision> inbox;
    private final EventOutbox<ActuationResult> outbox;
    private final ActuationService actuation;

    public DecisionConsumer(MeterRegistry registry, ActuationService actuation,
            @Channel(ActuatorChannels.ACTUATIONS) Emitter<ActuationResult> results,
            @Channel(ActuatorChannels.DEAD_LETTERS) Emitter<byte[]> deadLetters) {
        this.inbox = new EventInbox<>(new DecisionDeserializer(), new DeadLetters(deadLetters), registry, "rayscale.actuator.decisions");
        this.outbox = new EventOutbox<>(results);
        this.actuation = actuation;
    }

    @Incoming(ActuatorChannels.DECISIONS)
    @Blocking(ordered = true)
    public CompletionStage<Void> consume(Message<byte[]> record) {
        return inbox.deliver(record, decision -> outbox.publish(actuation.apply(decision)));
    }
}
