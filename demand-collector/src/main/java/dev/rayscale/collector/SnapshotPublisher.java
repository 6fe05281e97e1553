package dev.rayscale.collector;

import dev.rayscale.events.ClusterSnapshot;
import dev.rayscale.service.Causes;
import dev.rayscale.service.EventOutbox;
import io.micrometer.core.instrument.MeterRegistry;
import io.ray.v1.RayCluster;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletionStage;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.eclipse.microprofile.reactive.messaging.Channel;
import org.eclipse.microprofile.reactive.messaging.Emitter;
import org.jboss.logging.Logger;

/**
 * Publishes cluster snapshots to {@code rayscale.snapshots}, keyed by cluster, and says what became of each: the
 * time from observation to the broker, or why it is not there.
 */
@ApplicationScoped
public class SnapshotPublisher {

    private static final Logger LOG = Logger.getLogger(SnapshotPublisher.class);

    private final EventOutbox<ClusterSnapshot> outbox;
    private final MeterRegistry registry;
    private final CollectorMetrics metrics;
    private final ClusterWarnings warnings;

    public SnapshotPublisher(@Channel(CollectorChannels.SNAPSHOTS) Emitter<ClusterSnapshot> emitter, MeterRegistry registry,
            CollectorMetrics metrics, ClusterWarnings warnings) {
        this.outbox = new EventOutbox<>(emitter);
        this.registry = registry;
        this.metrics = metrics;
        this.warnings = warnings;
    }

    /** Completes when the broker has the snapshot of {@code cluster}, observed at {@code observedAt}. */
    public CompletionStage<Void> publish(ClusterSnapshot snapshot, RayCluster cluster, Instant observedAt) {
        return outbox.publish(snapshot).whenComplete((sent, failure) -> {
            registry.counter("rayscale.collector.snapshots.published", "outcome", failure == null ? "sent" : "failed").increment();
            if (failure == null) {
                metrics.published(Duration.between(observedAt, Instant.now()));
            } else if (Causes.root(failure) instanceof RecordTooLargeException tooLarge) {
                // Publishing it again will not make it fit: said once per generation of the cluster, counted every time.
                metrics.tooLarge(snapshot.cluster().id());
                warnings.once(cluster, "SnapshotTooLarge", "Rayscale cannot publish this cluster's snapshots, so it is not scaling it: "
                        + tooLarge.getMessage() + " (raise the collector's max.request.size and the rayscale.snapshots topic's "
                        + "max.message.bytes, see deploy/README.md)");
            } else {
                LOG.errorf(failure, "%s: snapshot %d was not published", snapshot.cluster().id(), snapshot.sequence());
            }
        });
    }
}
