package dev.rayscale.collector;

import dev.rayscale.events.ClusterSnapshot;
import dev.rayscale.service.EventOutbox;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.concurrent.CompletionStage;
import org.eclipse.microprofile.reactive.messaging.Channel;
import org.eclipse.microprofile.reactive.messaging.Emitter;

/** Publishes cluster snapshots to {@code rayscale.snapshots}, keyed by cluster. */
@ApplicationScoped
public class SnapshotPublisher {

    private final EventOutbox<ClusterSnapshot> outbox;
    private final MeterRegistry registry;

    public SnapshotPublisher(@Channel(CollectorChannels.SNAPSHOTS) Emitter<ClusterSnapshot> emitter, MeterRegistry registry) {
        this.outbox = new EventOutbox<>(emitter);
        this.registry = registry;
    }

    /** Completes when the broker has the snapshot. */
    public CompletionStage<Void> publish(ClusterSnapshot snapshot) {
        return outbox.publish(snapshot).whenComplete((sent, failure) -> registry.counter("rayscale.collector.snapshots.published",
                "outcome", failure == null ? "sent" : "failed").increment());
    }
}
