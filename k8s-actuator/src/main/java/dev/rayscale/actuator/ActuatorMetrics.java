package dev.rayscale.actuator;

import dev.rayscale.events.ActuationCause;
import dev.rayscale.events.Outcome;
import dev.rayscale.service.CallTimes;
import dev.rayscale.service.ClusterSeries;
import dev.rayscale.service.MetricTags;
import io.grpc.ClientInterceptor;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * What the actuator counts: outcomes by kind (in total and per cluster) and by cause, drains accepted and refused,
 * decision-to-patch latency, the Kubernetes API's answers and how long they took, writes made without a read first, and
 * reports dropped because too many were waiting to be sent. Its calls to the GCSs are timed by gRPC's own client metrics
 * ({@link #gcsCalls}).
 */
@ApplicationScoped
public class ActuatorMetrics {

    private static final String CAUSES = "rayscale.actuator.causes";
    private static final String REPORTS_DROPPED = "rayscale.actuator.reports.dropped";
    private static final List<String> REPORT_KINDS = List.of("event", "gcs");
    private static final String UNREAD_WRITES = "rayscale.actuator.unread.writes";
    private static final String RESULTS = "rayscale.actuator.results";
    private static final String KUBERNETES_REQUESTS = "rayscale.actuator.kubernetes.requests";
    private static final String OTHER_WRITES = "rayscale.actuator.other.writes";
    private static final String RAY_SERVICE_SYNCS = "rayscale.actuator.rayservice.syncs";
    private static final List<String> RAY_SERVICE_SYNC_RESULTS = List.of("written", "in-step", "not-active", "not-owner", "failed");

    private final MeterRegistry registry;
    private final Timer decisionToPatch;
    private final ClusterSeries series;

    public ActuatorMetrics(MeterRegistry registry) {
        this.registry = registry;
        this.series = new ClusterSeries(registry, System::nanoTime, cluster -> { }, RESULTS);
        this.decisionToPatch = Timer.builder("rayscale.actuator.decision.to.patch")
                .description("From the decision (its snapshot's observation) to the RayCluster patched")
                .publishPercentileHistogram().maximumExpectedValue(Duration.ofSeconds(60)).register(registry);
        for (Outcome outcome : Outcome.values()) {
            registry.counter("rayscale.actuator.outcomes", "outcome", outcome.name());
        }
        for (ActuationCause cause : ActuationCause.values()) {
            registry.counter(CAUSES, "cause", MetricTags.of(cause));
        }
        registry.counter("rayscale.actuator.drains", "result", "accepted");
        registry.counter("rayscale.actuator.drains", "result", "refused");
        for (String kind : REPORT_KINDS) {
            registry.counter(REPORTS_DROPPED, "kind", kind);
        }
        registry.counter(UNREAD_WRITES, "result", "applied");
        registry.counter(UNREAD_WRITES, "result", "read-after-all");
        registry.counter(OTHER_WRITES);
        registry.counter(OTHER_WRITES + ".holds");
        RAY_SERVICE_SYNC_RESULTS.forEach(result -> registry.counter(RAY_SERVICE_SYNCS, "result", result));
    }

    /**
     * Counted three times: in total by outcome, per cluster (for the dashboard's table; one series per cluster and outcome
     * seen, gone once nothing of the cluster has come for {@link ClusterSeries#EXPIRY}), and in total by cause (the dashboard's causes panel: drains refused, patches refused, clusters changed under a
     * decision).
     */
    void outcome(String cluster, ActuationCause cause) {
        registry.counter("rayscale.actuator.outcomes", "outcome", cause.outcome().name()).increment();
        series.seen(cluster);
        registry.counter(RESULTS, "cluster", cluster, "outcome", cause.outcome().name()).increment();
        registry.counter(CAUSES, "cause", MetricTags.of(cause)).increment();
    }

    void start(@Observes StartupEvent event) {
        series.expireUnseen();
    }

    void stop(@Observes ShutdownEvent event) {
        series.close();
    }

    void drains(int accepted, int refused) {
        registry.counter("rayscale.actuator.drains", "result", "accepted").increment(accepted);
        registry.counter("rayscale.actuator.drains", "result", "refused").increment(refused);
    }

    /** A report (an Event, a GCS report) dropped because the queue of reports to send was full. */
    void reportDropped(String kind) {
        registry.counter(REPORTS_DROPPED, "kind", kind).increment();
    }

    /**
     * A decision that could be written without reading its RayCluster ({@code tried}): whether it was ({@code applied}),
     * or the RayCluster had changed since this actuator's last write and was read after all.
     */
    void unreadWrite(boolean tried, boolean applied) {
        if (tried) {
            registry.counter(UNREAD_WRITES, "result", applied ? "applied" : "read-after-all").increment();
        }
    }

    /**
     * One request to the Kubernetes API ({@code request}: what it asked, such as {@code raycluster.patch}) and how it
     * ended: {@code answered} (2xx), {@code refused} (any other answer but a 5xx or 429), {@code failed} (5xx, 429) or
     * {@code no-answer}. When decisions wait to be taken up, these tell an API server that answers slowly from an
     * actuator that is slow of its own.
     */
    void kubernetesRequest(String request, String outcome, long nanos) {
        Timer.builder(KUBERNETES_REQUESTS).description("Requests to the Kubernetes API, by what they asked and how they ended")
                .tags("request", request, "outcome", outcome).serviceLevelObjectives(CallTimes.BUCKETS).register(registry)
                .record(nanos, TimeUnit.NANOSECONDS);
    }

    /**
     * A change of replicas or workersToDelete by another writer, found on a read; and whether Rayscale began to hold
     * for it. The writer is named in the cluster's Event, not in a tag: a field manager's name is whatever its client
     * chose.
     */
    void otherWrite(boolean holdBegan) {
        registry.counter(OTHER_WRITES).increment();
        if (holdBegan) {
            registry.counter(OTHER_WRITES + ".holds").increment();
        }
    }

    /**
     * After a write to a RayService's cluster, what became of its RayService: its replicas {@code written}, already
     * {@code in-step}, left alone ({@code not-active}: a pending or retired cluster; {@code not-owner}: the owner reference
     * names no such RayService), or {@code failed} (a Warning Event says why).
     */
    void rayServiceSync(String result) {
        registry.counter(RAY_SERVICE_SYNCS, "result", result).increment();
    }

    /** Times every call to a GCS, by gRPC method and status code ({@code grpc.client.processing.duration}). */
    ClientInterceptor gcsCalls() {
        return CallTimes.grpc(registry);
    }

    void patched(Duration sinceDecision) {
        decisionToPatch.record(sinceDecision.isNegative() ? Duration.ZERO : sinceDecision);
    }
}
