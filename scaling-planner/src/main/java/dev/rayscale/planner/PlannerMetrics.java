package dev.rayscale.planner;

import dev.rayscale.events.ClusterSnapshot;
import dev.rayscale.events.DecisionMode;
import dev.rayscale.events.InfeasibleDemand;
import dev.rayscale.events.Reason;
import dev.rayscale.events.ReasonCode;
import dev.rayscale.events.ScaleDecision;
import dev.rayscale.service.ClusterSeries;
import dev.rayscale.service.Gauges;
import dev.rayscale.service.MetricTags;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * What the planner counts: how long each plan takes, every evaluation by kind (published or not), the
 * decisions published per cluster and kind, and per cluster the demand it could not place and how long its oldest pod has
 * waited; a cluster's series go once nothing of it has come here for {@link ClusterSeries#EXPIRY}.
 */
@ApplicationScoped
public class PlannerMetrics {

    private static final String REASONS = "rayscale.planner.decision.reasons";
    private static final String INFEASIBLE = "rayscale.planner.infeasible.demand";
    private static final String PODS_WAITING = "rayscale.planner.pods.waiting.oldest.seconds";
    private static final String DECISIONS = "rayscale.planner.decisions";

    private final MeterRegistry registry;
    private final Timer planTime;
    private final Map<String, AtomicLong> infeasible = new ConcurrentHashMap<>();
    private final Map<String, AtomicLong> oldestWaitingPod = new ConcurrentHashMap<>();
    private final ClusterSeries series;

    @Inject
    public PlannerMetrics(MeterRegistry registry) {
        this(registry, System::nanoTime);
    }

    PlannerMetrics(MeterRegistry registry, LongSupplier nanoTime) {
        this.registry = registry;
        this.series = new ClusterSeries(registry, nanoTime, this::forgotten, INFEASIBLE, PODS_WAITING, DECISIONS);
        this.planTime = Timer.builder("rayscale.planner.plan.duration")
                .description("Time to compute one decision from one snapshot")
                .publishPercentileHistogram()
                .minimumExpectedValue(Duration.ofNanos(10_000))
                .maximumExpectedValue(Duration.ofSeconds(1))
                .register(registry);
        registry.counter("rayscale.planner.snapshots.skipped", "reason", "expired");
        registry.counter("rayscale.planner.snapshots.skipped", "reason", "superseded");
        for (ReasonCode code : ReasonCode.values()) {
            registry.counter(REASONS, "code", code.tag());
        }
    }

    void start(@Observes StartupEvent event) {
        series.expireUnseen();
    }

    void stop(@Observes ShutdownEvent event) {
        series.close();
    }

    /** As {@link ClusterSeries#forgetUnseenSince}: the series of clusters from which nothing has come since {@code cutoff}. */
    void forgetUnseenSince(long cutoff) {
        series.forgetUnseenSince(cutoff);
    }

    private void forgotten(String cluster) {
        infeasible.remove(cluster);
        oldestWaitingPod.remove(cluster);
    }

    /** A snapshot older than the decision TTL, not planned. */
    void skipped() {
        registry.counter("rayscale.planner.snapshots.skipped", "reason", "expired").increment();
    }

    /** A snapshot not planned because a newer one of its cluster came in the same batch. */
    void superseded() {
        registry.counter("rayscale.planner.snapshots.skipped", "reason", "superseded").increment();
    }

    /**
     * Per cluster, how long its oldest pod has waited for a node (seconds, 0 when none waits): a pod that waits long
     * is a node pool that cannot grow, which only the platform team can fix.
     */
    void observed(ClusterSnapshot snapshot) {
        series.seen(snapshot.cluster().id());
        if (snapshot.pendingPods() == null) {
            return;  // Kubernetes was not read for this snapshot: what waits is unknown, the last figure stands
        }
        long oldest = snapshot.pendingPods().stream()
                .mapToLong(pod -> Math.max(0, Duration.between(pod.createdAt(), snapshot.observedAt()).toSeconds())).max().orElse(0);
        oldestWaitingPod.computeIfAbsent(snapshot.cluster().id(), cluster -> clusterGauge(PODS_WAITING, cluster))
                .set(oldest);
    }

    void planned(ScaleDecision decision, long nanos) {
        series.seen(decision.cluster().id());
        planTime.record(Duration.ofNanos(nanos));
        registry.counter("rayscale.planner.evaluations", "kind", kind(decision)).increment();
        long unplaced = decision.infeasible().stream().mapToLong(PlannerMetrics::size).sum();
        infeasible.computeIfAbsent(decision.cluster().id(), cluster -> clusterGauge(INFEASIBLE, cluster)).set(unplaced);
    }

    /** A per-cluster gauge of a value this bean holds. */
    private AtomicLong clusterGauge(String name, String cluster) {
        AtomicLong value = new AtomicLong();
        Gauges.register(registry, name, value, AtomicLong::get, null, "cluster", cluster);
        return value;
    }

    /**
     * A decision worth publishing, per cluster and kind: what the dashboard shows per cluster; and its reasons by code,
     * which the dashboard shows over time (how often clusters are held because a GCS cannot be read, launches fail).
     */
    void published(ScaleDecision decision) {
        series.seen(decision.cluster().id());
        registry.counter(DECISIONS, "cluster", decision.cluster().id(), "kind", kind(decision)).increment();
        decision.codedReasons().stream().map(Reason::code).distinct()
                .forEach(code -> registry.counter(REASONS, "code", code.tag()).increment());
    }

    /** scale_up, scale_down, mixed or unchanged; hold (the cluster's state was unknown) or frozen (Rayscale is suspended). */
    static String kind(ScaleDecision decision) {
        if (decision.mode() != null && decision.mode() != DecisionMode.ACTIVE) {
            return MetricTags.of(decision.mode());
        }
        boolean up = decision.groups().stream().anyMatch(g -> g.targetReplicas() > g.currentReplicas());
        boolean down = decision.groups().stream().anyMatch(g -> g.targetReplicas() < g.currentReplicas() || !g.toDelete().isEmpty());
        return up && down ? "mixed" : up ? "scale_up" : down ? "scale_down" : "unchanged";
    }


    private static long size(InfeasibleDemand demand) {
        return demand.count() != null ? demand.count() : Math.max(1, demand.bundles().size());
    }
}
