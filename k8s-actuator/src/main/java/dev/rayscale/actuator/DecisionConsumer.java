package dev.rayscale.actuator;

import dev.rayscale.events.ScaleDecision;
import dev.rayscale.events.codec.DecisionDeserializer;
import dev.rayscale.service.EventInbox;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.jboss.logging.Logger;

/** Reads scale decisions from Kafka; what it cannot read goes to {@code rayscale.k8s-actuator.dlq}. */
@ApplicationScoped
public class DecisionConsumer {

    private static final Logger LOG = Logger.getLogger(DecisionConsumer.class);

    private final EventInbox<ScaleDecision> inbox;

    public DecisionConsumer(MeterRegistry registry) {
        this.inbox = new EventInbox<>(new DecisionDeserializer(), registry, "rayscale.actuator.decisions");
    }

    @Incoming(ActuatorChannels.DECISIONS)
    public CompletionStage<Void> consume(Message<byte[]> record) {
        return inbox.deliver(record, this::apply);
    }

    private CompletionStage<Void> apply(ScaleDecision decision) {
        LOG.debugf("decision %s for %s (snapshot %d)", decision.id(), decision.cluster().id(), decision.snapshotSequence());
        return CompletableFuture.completedFuture(null);
    }
}
