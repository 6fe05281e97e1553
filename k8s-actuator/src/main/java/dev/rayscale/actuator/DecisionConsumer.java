package dev.rayscale.actuator;

import dev.rayscale.events.ActuationResult;
import dev.rayscale.events.ScaleDecision;
import dev.rayscale.events.codec.DecisionDeserializer;
import dev.rayscale.service.DeadLetters;
import dev.rayscale.service.EventInbox;
import dev.rayscale.service.EventOutbox;
import dev.rayscale.service.InFlight;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.ShutdownEvent;
import io.smallrye.reactive.messaging.annotations.Blocking;
import jakarta.enterprise.context.ApplicationScoped;
import io.smallrye.reactive.messaging.kafka.KafkaRecordBatch;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Priority;
import jakarta.enterprise.event.Observes;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
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
 * <p>Decisions come in the batches the broker returns, and the clusters in a batch are served side by side: a
 * decision's time is mostly spent waiting on the API server and the GCS, so one cluster's patch need not wait for
 * another's.
 *
 * <p>After an outage a cluster's decisions queue up (the planner decides on every snapshot); of those delivered
 * together, only the newest is applied, and the older ones are answered STALE, superseded, without a call to the API server or the GCS.
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
    private final ExecutorService workers;
    private final InFlight inFlight = new InFlight("decisions", "applied");

    public DecisionConsumer(MeterRegistry registry, ActuationService actuation, ActuatorConfig config,
            @Channel(ActuatorChannels.ACTUATIONS) Emitter<ActuationResult> results,
            @Channel(ActuatorChannels.DEAD_LETTERS) Emitter<byte[]> deadLetters) {
        this.inbox = new EventInbox<>(new DecisionDeserializer(), new DeadLetters(deadLetters), registry, "rayscale.actuator.decisions",
                PIPELINED_RESULTS);
        this.outbox = new EventOutbox<>(results);
        this.actuation = actuation;
        this.workers = Executors.newFixedThreadPool(Math.max(1, config.clustersInParallel()), runnable -> {
            Thread thread = new Thread(runnable, "actuator-worker");
            thread.setDaemon(true);
            return thread;
        });
    }

    @Incoming(ActuatorChannels.DECISIONS)
    @Blocking(ordered = true)
    public CompletionStage<Void> consume(KafkaRecordBatch<String, byte[]> batch) {
        return inFlight.consume(batch.getRecords().size(), () -> handle(batch.getRecords()));
    }

    /** While the beans that applying calls are still there: the batches under way end, and no new one starts. */
    void drain(@Observes @Priority(ShutdownOrder.DECISIONS) ShutdownEvent event) {
        inFlight.stop();
    }

    /**
     * Handles records in order, each acknowledged once its result is on the broker (or it is set aside). Different
     * clusters' decisions are applied side by side, on up to {@code clusters-in-parallel} workers; one cluster's are
     * applied one after another, in order, by one worker. Results are published in the records' order.
     */
    void handle(List<? extends Message<byte[]>> records) {
        EventInbox.Batch<ScaleDecision> batch = inbox.read(records, ScaleDecision::snapshotSequence);
        List<EventInbox.Read<ScaleDecision>> reads = batch.reads();
        Map<String, List<Integer>> byCluster = new LinkedHashMap<>();
        // Only readable records get a result to wait for: the inbox sets an unreadable one aside without calling back.
        Map<Integer, CompletableFuture<ActuationResult>> results = new HashMap<>();
        for (int i = 0; i < reads.size(); i++) {
            int index = i;
            reads.get(i).event().ifPresent(decision -> {
                byCluster.computeIfAbsent(decision.cluster().id(), cluster -> new ArrayList<>()).add(index);
                results.put(index, new CompletableFuture<>());
            });
        }
        for (List<Integer> cluster : byCluster.values()) {
            workers.execute(() -> {
                for (int index : cluster) {
                    ScaleDecision decision = reads.get(index).event().orElseThrow();
                    try {
                        results.get(index).complete(actuation.apply(decision, batch.newest(decision)));
                    } catch (Throwable failed) {
                        results.get(index).completeExceptionally(failed);
                    }
                }
            });
        }
        for (int i = 0; i < reads.size(); i++) {
            int index = i;
            inbox.deliver(reads.get(i), decision -> outbox.publish(awaited(results.get(index)))).toCompletableFuture().join();
        }
    }

    /** The result, or what applying it threw, as it was thrown (the inbox sets the decision aside with that reason). */
    private static ActuationResult awaited(CompletableFuture<ActuationResult> result) {
        try {
            return result.join();
        } catch (CompletionException wrapped) {
            if (wrapped.getCause() instanceof RuntimeException failure) {
                throw failure;
            }
            if (wrapped.getCause() instanceof Error failure) {
                throw failure;
            }
            throw wrapped;
        }
    }

    @PreDestroy
    void stop() {
        workers.shutdown();
    }
}
