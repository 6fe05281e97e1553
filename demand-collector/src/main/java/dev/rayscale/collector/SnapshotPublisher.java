package dev.rayscale.collector;

import dev.rayscale.events.ClusterSnapshot;
import dev.rayscale.service.Causes;
import dev.rayscale.service.EventOutbox;
import dev.rayscale.service.Unsettled;
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
    private final CollectorMetrics metrics;
    private final ClusterWarnings warnings;
    /** Snapshots handed to the producer and not yet acknowledged: what shutting down waits for. */
    private final Unsettled unacknowledged = new Unsettled();

    public SnapshotPublisher(@Channel(CollectorChannels.SNAPSHOTS) Emitter<ClusterSnapshot> emitter, CollectorMetrics metrics,
            ClusterWarnings warnings) {
        this.outbox = new EventOutbox<>(emitter);
        this.metrics = metrics;
        this.warnings = warnings;
    }

    /** Completes when the broker has the snapshot of {@code cluster}, observed at {@code observedAt}. */
    public CompletionStage<Void> publish(ClusterSnapshot snapshot, RayCluster cluster, Instant observedAt) {
        return unacknowledged.track(outbox.publish(snapshot)).whenComplete((sent, failure) -> {
            if (failure == null) {
                metrics.published(Duration.between(observedAt, Instant.now()));
                return;
            }
            metrics.notPublished();
            if (Causes.root(failure) instanceof RecordTooLargeException tooLarge) {
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

    /** Waits, at most {@code patience}, until the broker has acknowledged or refused every snapshot handed to it. */
    void awaitAcknowledged(Duration patience) {
        if (!unacknowledged.await(patience)) {
            LOG.warnf("%d snapshot(s) not acknowledged after %s; stopping without them", unacknowledged.size(), patience);
        }
    }
}
