package dev.rayscale.collector;

import dev.rayscale.collector.assembly.GcsRead;
import dev.rayscale.service.CallTimes;
import dev.rayscale.service.ClusterSeries;
import dev.rayscale.service.Gauges;
import io.grpc.ClientInterceptor;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntSupplier;

/**
 * What the collector counts: GCS polls and their latency, errors and how long reads have failed by cluster, clusters watched,
 * snapshots published or not, snapshot lag, snapshots too large to publish, pods cached, failed lists and watches of Kubernetes;
 * and, by gRPC's own client metrics, every call to a GCS.
 */
@ApplicationScoped
public class CollectorMetrics {

    private static final String GCS_UNREACHABLE = "rayscale.collector.gcs.unreachable";
    private static final String GCS_ERRORS = "rayscale.collector.gcs.errors";
    private static final String TOO_LARGE = "rayscale.collector.snapshots.too.large";
    private static final String UNSUPPORTED = "rayscale.collector.clusters.unsupported";

    private final MeterRegistry registry;
    private final Timer pollOk;
    private final Timer pollFailed;
    private final Timer lag;
    private final Counter skipped;
    private final Counter sent;
    private final Counter notSent;
    private final AtomicInteger watched = new AtomicInteger();
    private final AtomicInteger misconfigured = new AtomicInteger();
    private final AtomicInteger unsupported = new AtomicInteger();
    private final AtomicInteger scaleUpOnly = new AtomicInteger();
    private final AtomicInteger beyondQuota = new AtomicInteger();
    private final Counter switchesSet;
    /** Per cluster, when its GCS reads began to fail (epoch milliseconds), 0 while they succeed. */
    private final Map<String, AtomicLong> failingSince = new ConcurrentHashMap<>();
    private final ClusterSeries series;

    public CollectorMetrics(MeterRegistry registry) {
        this.registry = registry;
        this.series = new ClusterSeries(registry, System::nanoTime, failingSince::remove, GCS_UNREACHABLE, GCS_ERRORS, TOO_LARGE);
        this.pollOk = pollTimer("ok");
        this.pollFailed = pollTimer("error");
        this.lag = Timer.builder("rayscale.collector.snapshot.lag")
                .description("From reading a cluster's state to its snapshot being on the broker")
                .publishPercentileHistogram().maximumExpectedValue(Duration.ofSeconds(30)).register(registry);
        this.skipped = Counter.builder("rayscale.collector.polls.queued")
                .description("Rounds in which more clusters were due than concurrent-call permits were free (reads queued)").register(registry);
        this.sent = published("sent");
        this.notSent = published("failed");
        ClusterInventory.KINDS.forEach(this::kubernetesFailures);
        Gauges.register(registry, "rayscale.collector.clusters.watched", watched, AtomicInteger::get, "Opted-in clusters this replica reads");
        Gauges.register(registry, "rayscale.collector.clusters.misconfigured", misconfigured, AtomicInteger::get,
                "Opted-in clusters with in-tree autoscaling on, which Rayscale leaves alone");
        String unsupportedHelp = "Opted-in clusters whose Ray or KubeRay Rayscale cannot serve safely, by what it does there "
                + "(docs/ray-versions.md)";
        Gauges.register(registry, UNSUPPORTED, unsupported, AtomicInteger::get, unsupportedHelp, "support", "UNSUPPORTED");
        Gauges.register(registry, UNSUPPORTED, scaleUpOnly, AtomicInteger::get, unsupportedHelp, "support", "SCALE_UP_ONLY");
        Gauges.register(registry, "rayscale.collector.clusters.beyond.quota", beyondQuota, AtomicInteger::get,
                "Opted-in clusters left alone because their namespace has more than rayscale.collector.max-clusters-per-namespace");
        this.switchesSet = Counter.builder("rayscale.collector.client.switches.set")
                .description("Times the collector set Ray's client switch (__autoscaler_v2_enabled) to 1 in a GCS: a GCS started, or it was set back")
                .register(registry);
    }

    /** Times every call to a GCS, by gRPC method and status code ({@code grpc.client.processing.duration}). */
    ClientInterceptor gcsCalls() {
        return CallTimes.grpc(registry);
    }

    /** Counts the Ray pods the informers hold, as {@code cached} says: what the collector's memory grows with. */
    void podsCached(IntSupplier cached) {
        Gauges.register(registry, "rayscale.collector.pods.cached", cached, IntSupplier::getAsInt,
                "Ray pods the informers hold: what the collector's memory grows with");
    }

    private Timer pollTimer(String outcome) {
        return Timer.builder("rayscale.collector.poll.duration").description("One GetClusterResourceState call to a cluster's GCS")
                .tag("outcome", outcome).publishPercentileHistogram().maximumExpectedValue(Duration.ofSeconds(30)).register(registry);
    }

    /**
     * A read of the cluster's GCS. A GCS that answered UNIMPLEMENTED (a Ray before the autoscaler state service) was reached:
     * it is counted as an error of that code, never as unreachable (the cluster is counted unsupported instead).
     */
    void polled(String cluster, String errorCode, long nanos) {
        (errorCode == null ? pollOk : pollFailed).record(Duration.ofNanos(nanos));
        AtomicLong since = failingSince.computeIfAbsent(cluster, id -> {
            AtomicLong value = new AtomicLong();
            Gauges.register(registry, GCS_UNREACHABLE, "seconds", value, CollectorMetrics::secondsSince,
                    "How long every read of the cluster's GCS has failed (0 while reads succeed)", "cluster", id);
            return value;
        });
        if (errorCode == null || errorCode.equals(GcsRead.NO_AUTOSCALER_SERVICE)) {
            since.set(0);
        } else {
            since.compareAndSet(0, System.currentTimeMillis());
        }
        if (errorCode != null) {
            registry.counter(GCS_ERRORS, "cluster", cluster, "code", errorCode).increment();
        }
    }

    /**
     * A cluster this replica no longer reads (deleted, opted out, another replica's now): its series go with it. Left, the
     * seconds its GCS had been failing would grow for ever, and RayscaleGcsUnreachable fire for a cluster that is gone.
     */
    void forget(String cluster) {
        series.forget(cluster);
    }

    private static double secondsSince(AtomicLong since) {
        long start = since.get();
        return start == 0 ? 0 : (System.currentTimeMillis() - start) / 1000.0;
    }

    private Counter published(String outcome) {
        return Counter.builder("rayscale.collector.snapshots.published").description("Snapshots handed to the producer, by what the broker said")
                .tag("outcome", outcome).register(registry);
    }

    /** The broker has the snapshot, read from the GCS {@code sinceObserved} ago. */
    void published(Duration sinceObserved) {
        sent.increment();
        lag.record(sinceObserved);
    }

    /** The broker refused the snapshot, or it never got there. */
    void notPublished() {
        notSent.increment();
    }

    /** A snapshot too large to be written (the producer's max.request.size or the topic's max.message.bytes). */
    void tooLarge(String cluster) {
        Counter.builder(TOO_LARGE).tag("cluster", cluster)
                .description("Snapshots that could not be published because they were too large for the producer or the topic")
                .register(registry).increment();
    }

    /** Called on the bean, never through its fields: a CDI client proxy's own fields are never set. */
    void clusters(int watchedNow, int misconfiguredNow, int unsupportedNow, int scaleUpOnlyNow, int beyondQuotaNow) {
        beyondQuota.set(beyondQuotaNow);
        watched.set(watchedNow);
        misconfigured.set(misconfiguredNow);
        unsupported.set(unsupportedNow);
        scaleUpOnly.set(scaleUpOnlyNow);
    }

    void clientSwitchSet() {
        switchesSet.increment();
    }

    void deferred() {
        skipped.increment();
    }

    /** A read of {@code namespace} waited because the namespace's share of the GCS calls was under way. */
    void namespaceShareReached(String namespace) {
        registry.counter("rayscale.collector.reads.share.reached", "namespace", namespace).increment();
    }

    /** A list or watch of {@code kind} (rayclusters, pods) that failed; its informer tries again. */
    void kubernetesFailure(String kind) {
        kubernetesFailures(kind).increment();
    }

    private Counter kubernetesFailures(String kind) {
        return Counter.builder("rayscale.collector.kubernetes.failures").tag("kind", kind)
                .description("Lists and watches of RayClusters or pods that failed; each informer tries again, with backoff")
                .register(registry);
    }

}
