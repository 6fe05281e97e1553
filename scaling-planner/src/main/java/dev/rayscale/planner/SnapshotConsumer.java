package dev.rayscale.planner;

import dev.rayscale.events.ClusterSnapshot;
import dev.rayscale.events.ScaleDecision;
import dev.rayscale.events.codec.SnapshotDeserializer;
import dev.rayscale.planner.core.Planner;
import dev.rayscale.service.DeadLetters;
import dev.rayscale.service.EventInbox;
import dev.rayscale.service.EventOutbox;
import dev.rayscale.service.InFlight;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.ShutdownEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.time.Clock;
import java.time.Duration;
import io.smallrye.reactive.messaging.annotations.Blocking;
import io.smallrye.reactive.messaging.kafka.KafkaRecordBatch;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.eclipse.microprofile.reactive.messaging.Channel;
import org.eclipse.microprofile.reactive.messaging.Emitter;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.jboss.logging.Logger;

/**
 * The planner service: each snapshot from {@code rayscale.snapshots} becomes a decision, published to
 * {@code rayscale.decisions} when it changes something. A snapshot is acknowledged only once its
 * decision is on the broker (up to {@value #PIPELINED_DECISIONS} on their way at once); what cannot be
 * read goes to {@code rayscale.scaling-planner.dlq}. Snapshots come in the batches a poll returns; of one cluster's
 * snapshots in a batch only the newest is planned.
 */
@ApplicationScoped
public class SnapshotConsumer {

    private static final Logger LOG = Logger.getLogger(SnapshotConsumer.class);
    private static final int LOGGED_REASONS = 5;
    /**
     * Decisions that may be on their way to the broker while the next snapshots are planned. Waiting for each one's
     * acknowledgement before reading on held a fleet's planner to one decision per broker round trip (a backlog of
     * thousands of snapshots at 1,000 clusters, {@code ./rayscale bench}); each snapshot is still acknowledged only once
     * its decision is on the broker, and decisions leave in the order they were made.
     */
    static final int PIPELINED_DECISIONS = 64;

    private final EventInbox<ClusterSnapshot> inbox;
    private final EventOutbox<ScaleDecision> outbox;
    private final Planner planner;
    private final PlannerMetrics metrics;
    private final Duration ttl;
    private final Clock clock;
    private final InFlight inFlight = new InFlight("snapshots", "planned");

    public SnapshotConsumer(MeterRegistry registry, PlannerConfig config, PlannerMetrics metrics,
            @Channel(PlannerChannels.DECISIONS) Emitter<ScaleDecision> decisions,
            @Channel(PlannerChannels.DEAD_LETTERS) Emitter<byte[]> deadLetters) {
        this.inbox = new EventInbox<>(new SnapshotDeserializer(), new DeadLetters(deadLetters), registry, "rayscale.planner.snapshots",
                PIPELINED_DECISIONS);
        this.outbox = new EventOutbox<>(decisions);
        this.planner = new Planner(config.settings());
        this.metrics = metrics;
        this.ttl = config.decisionTtl();
        this.clock = Clock.systemUTC();
    }

    @Incoming(PlannerChannels.SNAPSHOTS)
    @Blocking(ordered = true)
    public CompletionStage<Void> consume(KafkaRecordBatch<String, byte[]> batch) {
        return inFlight.consume(batch.getRecords().size(), () -> handle(batch.getRecords()));
    }

    /**
     * While the beans that planning calls are still there: the batches under way end, no new one starts, and the decisions
     * on their way reach the broker, so that their snapshots are acknowledged before the consumer commits and closes.
     */
    void drain(@Observes ShutdownEvent event) {
        inFlight.stop();
        inbox.settle(InFlight.PATIENCE);
    }

    /**
     * Plans the records in order, except a snapshot followed in the same batch by a newer one of its cluster: that
     * one's decision would be superseded before the actuator read it (a backlog after a pause or a rebalance, or a
     * planner that falls behind a fleet), so it is acknowledged unplanned and counted, and the newest is planned.
     */
    void handle(List<? extends Message<byte[]>> records) {
        EventInbox.Batch<ClusterSnapshot> batch = inbox.read(records, ClusterSnapshot::sequence);
        for (EventInbox.Read<ClusterSnapshot> read : batch.reads()) {
            inbox.deliver(read, snapshot -> snapshot.sequence() < batch.newest(snapshot).sequence() ? superseded(snapshot) : plan(snapshot))
                    .toCompletableFuture().join();
        }
    }

    private CompletionStage<Void> superseded(ClusterSnapshot snapshot) {
        metrics.superseded();
        LOG.debugf("%s: snapshot %d superseded by a newer one in the same batch; not planned", snapshot.cluster().id(), snapshot.sequence());
        return CompletableFuture.completedFuture(null);
    }

    private CompletionStage<Void> plan(ClusterSnapshot snapshot) {
        metrics.observed(snapshot);
        Duration age = Duration.between(snapshot.observedAt(), clock.instant());
        if (age.compareTo(ttl) > 0) {
            // A backlog (after a restart, a rebalance): a decision from it would expire before it is made.
            // The newest snapshot of the cluster comes after it on the same partition.
            metrics.skipped();
            LOG.debugf("%s: snapshot %d is %d ms old, past the decision TTL; skipped", snapshot.cluster().id(), snapshot.sequence(),
                    age.toMillis());
            return CompletableFuture.completedFuture(null);
        }
        long start = System.nanoTime();
        ScaleDecision decision = planner.plan(snapshot);
        metrics.planned(decision, System.nanoTime() - start);
        if (!decision.worthPublishing()) {
            LOG.debugf("%s: snapshot %d changes nothing", snapshot.cluster().id(), snapshot.sequence());
            return CompletableFuture.completedFuture(null);
        }
        LOG.infof("%s: decision %s from snapshot %d: %s", snapshot.cluster().id(), decision.id(), snapshot.sequence(),
                summary(decision.reasons()));
        metrics.published(decision);
        return outbox.publish(decision);
    }

    /** A decision's first reasons, for the log: a cluster with thousands of unplaceable shapes has a reason for each. */
    static String summary(List<String> reasons) {
        String shown = String.join("; ", reasons.subList(0, Math.min(LOGGED_REASONS, reasons.size())));
        return reasons.size() <= LOGGED_REASONS ? shown : shown + "; and " + (reasons.size() - LOGGED_REASONS) + " more (see the decision)";
    }
}
