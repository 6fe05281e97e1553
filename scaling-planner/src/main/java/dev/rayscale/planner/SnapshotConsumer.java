package dev.rayscale.planner;

import dev.rayscale.events.ClusterSnapshot;
import dev.rayscale.events.codec.SnapshotDeserializer;
import dev.rayscale.service.EventInbox;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.jboss.logging.Logger;

/** Reads cluster snapshots from Kafka; what it cannot read goes to {@code rayscale.scaling-planner.dlq}. */
@ApplicationScoped
public class SnapshotConsumer {

    private static final Logger LOG = Logger.getLogger(SnapshotConsumer.class);

    private final EventInbox<ClusterSnapshot> inbox;

    public SnapshotConsumer(MeterRegistry registry) {
        this.inbox = new EventInbox<>(new SnapshotDeserializer(), registry, "rayscale.planner.snapshots");
    }

    @Incoming(PlannerChannels.SNAPSHOTS)
    public CompletionStage<Void> consume(Message<byte[]> record) {
        return inbox.deliver(record, this::plan);
    }

    private CompletionStage<Void> plan(ClusterSnapshot snapshot) {
        LOG.debugf("snapshot %s of %s (sequence %d)", snapshot.id(), snapshot.cluster().id(), snapshot.sequence());
        return CompletableFuture.completedFuture(null);
    }
}
