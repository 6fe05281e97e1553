package dev.rayscale.actuator;

import dev.rayscale.actuator.core.Admission;
import dev.rayscale.events.ActuationResult;
import dev.rayscale.events.ScaleDecision;
import dev.rayscale.events.codec.DecisionDeserializer;
import dev.rayscale.service.DeadLetters;
import dev.rayscale.service.EventInbox;
import dev.rayscale.service.EventOutbox;
import dev.rayscale.service.Gauges;
import dev.rayscale.service.InFlight;
import dev.rayscale.service.RefusedEventException;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.ShutdownEvent;
import io.smallrye.reactive.messaging.annotations.Blocking;
import io.smallrye.reactive.messaging.kafka.KafkaRecordBatch;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ThreadPoolExecutor;
import org.eclipse.microprofile.reactive.messaging.Channel;
import org.eclipse.microprofile.reactive.messaging.Emitter;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.jboss.logging.Logger;

/**
 * The actuator service: each decision from {@code rayscale.decisions} is applied and its result
 * published to {@code rayscale.actuations}; the decision's offset is committed only once the result is
 * on the broker. What cannot be read, and what the planner cannot have made ({@link Admission}), goes to
 * {@code rayscale.k8s-actuator.dlq}.
 *
 * <p>Decisions are taken into one lane per cluster ({@link DecisionLanes}): a cluster's are applied in order, one at a
 * time, different clusters' side by side (a decision's time is mostly spent waiting on the API server and the GCS), and
 * the consumer reads on while they are applied. A decision still waiting when a newer one of its cluster comes (after an
 * outage, or while the actuator is behind) is answered STALE, superseded, without a call to the API server or the GCS;
 * so is one delivered in the same batch as a newer one.
 */
@ApplicationScoped
public class DecisionConsumer {

    /**
     * Decisions taken in whose results are not yet on the broker, over all clusters: more waits in the topic. Enough for
     * each cluster of a 1,000-cluster fleet to have a decision in its lane ({@code ./rayscale bench}); few enough that the heap holds them (40,000 queued decisions of 6 KB went through the 96 MiB heap, 4,096
     * at once did not) and that their results fit in what the results' channel takes in flight (1,024 records, and 128
     * more buffered by the emitter, which refuses the next one).
     */
    static final int OPEN_DECISIONS = 1024;
    private static final Logger LOG = Logger.getLogger(DecisionConsumer.class);

    private final EventInbox<ScaleDecision> inbox;
    private final DecisionLanes lanes;
    private final ThreadPoolExecutor workers;
    private final InFlight inFlight = new InFlight("decisions", "applied");

    public DecisionConsumer(MeterRegistry registry, ActuationService actuation, ActuatorConfig config,
            @Channel(ActuatorChannels.ACTUATIONS) Emitter<ActuationResult> results,
            @Channel(ActuatorChannels.DEAD_LETTERS) Emitter<byte[]> deadLetters) {
        // The lanes bound what is open; the inbox lets each record on as soon as its lane has it.
        this.inbox = new EventInbox<>(new DecisionDeserializer(), DecisionConsumer::admit, new DeadLetters(deadLetters), registry,
                "rayscale.actuator.decisions", Integer.MAX_VALUE);
        this.workers = DecisionLanes.workers(Math.max(1, config.clustersInParallel()), runnable -> {
            Thread thread = new Thread(runnable, "actuator-worker");
            thread.setDaemon(true);
            return thread;
        });
        this.lanes = new DecisionLanes(workers, actuation::apply, new EventOutbox<>(results)::publish, OPEN_DECISIONS,
                Math.max(1, config.clustersInParallelPerNamespace()),
                namespace -> registry.counter("rayscale.actuator.namespace.share.reached", "namespace", namespace).increment());
        Gauges.register(registry, "rayscale.actuator.decisions.open", lanes, DecisionLanes::open,
                "Decisions taken up and not yet answered on the broker (at most " + OPEN_DECISIONS + ")");
    }

    private static void admit(ScaleDecision decision) {
        String refusal = Admission.refusal(decision, Instant.now());
        if (refusal != null) {
            throw new RefusedEventException(refusal);
        }
    }

    @Incoming(ActuatorChannels.DECISIONS)
    @Blocking(ordered = true)
    public CompletionStage<Void> consume(KafkaRecordBatch<String, byte[]> batch) {
        return inFlight.consume(batch.getRecords().size(), () -> handle(batch.getRecords()));
    }

    /**
     * While the beans that applying calls are still there: no decision is started any more, those being applied end, and
     * no batch is taken. What was waiting is left unacknowledged for the partition's next reader.
     */
    void drain(@Observes @Priority(ShutdownOrder.DECISIONS) ShutdownEvent event) throws InterruptedException {
        if (!lanes.close(InFlight.PATIENCE)) {
            LOG.warnf("stopping while decisions are still being applied after %s; their records are read again by the partition's "
                    + "next reader", InFlight.PATIENCE);
        }
        inFlight.stop();
        inbox.settle(InFlight.PATIENCE);
    }

    /**
     * Takes the records in, in order, each acknowledged once its result is on the broker (or it is set aside); waits while
     * the lanes are full. Of one cluster's decisions in the batch, the newest supersedes the others.
     */
    void handle(List<? extends Message<byte[]>> records) {
        EventInbox.Batch<ScaleDecision> batch = inbox.read(records, ScaleDecision::snapshotSequence);
        for (EventInbox.Read<ScaleDecision> read : batch.reads()) {
            if (read.event().isPresent() && !room()) {
                return;
            }
            inbox.deliver(read, decision -> lanes.offer(decision, batch.newest(decision))).toCompletableFuture().join();
        }
    }

    /** Whether the lanes took room for one more decision; false when they are closed (the service is stopping). */
    private boolean room() {
        try {
            return lanes.awaitRoom();
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    @PreDestroy
    void stop() {
        workers.shutdown();
    }
}
