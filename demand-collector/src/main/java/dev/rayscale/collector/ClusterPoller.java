package dev.rayscale.collector;

import dev.rayscale.clients.GcsChannels;
import dev.rayscale.collector.assembly.Fingerprint;
import dev.rayscale.collector.assembly.PollState;
import dev.rayscale.collector.assembly.SnapshotAssembler;
import dev.rayscale.collector.assembly.SupportMatrix;
import dev.rayscale.events.Annotations;
import dev.rayscale.events.ClusterSnapshot;
import dev.rayscale.events.Support;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.ray.v1.RayCluster;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.jboss.logging.Logger;

/**
 * Reads every opted-in cluster this replica owns, each poll interval: observe ({@link ClusterObserver}: at most
 * {@code max-concurrent-calls} GCS calls in flight, exponential backoff per failing cluster), assemble
 * ({@link SnapshotAssembler}) and publish ({@link SnapshotPublisher}) when something changed — the GCS's demand,
 * the RayCluster's generation, the pod set — or the heartbeat is due. When a cluster is due is a pure value
 * ({@link PollState}), replaced whole on every transition.
 *
 * <p>A failed read is a snapshot saying UNAVAILABLE, never an empty one. No snapshot is made before
 * the informers have synced. A cluster deleted or opted out is dropped and its channel closed.
 */
@ApplicationScoped
public class ClusterPoller {

    private static final Logger LOG = Logger.getLogger(ClusterPoller.class);

    private final ClusterInventory inventory;
    private final ClusterObserver observer;
    private final SnapshotPublisher publisher;
    private final ClusterWarnings warnings;
    private final CollectorConfig config;
    private final Sharding sharding;
    private final CollectorMetrics metrics;
    private final Semaphore permits;
    /** Each tracked cluster's poll state; replaced whole, atomically, on every transition. */
    private final Map<String, PollState> tracked = new ConcurrentHashMap<>();
    /** What Rayscale does for each tracked cluster, as its last snapshot said; counted for the metric. */
    private final Map<String, Support> support = new ConcurrentHashMap<>();
    /** Clusters due for a read, waiting for one of the concurrent-call permits, namespace by namespace ({@link FairReads}). */
    private final FairReads<Map.Entry<String, RayCluster>> due;
    private volatile boolean stopping;
    private final PollerProgress progress;
    private final ScheduledExecutorService ticker = Executors.newSingleThreadScheduledExecutor(runnable -> {
        Thread thread = new Thread(runnable, "collector-ticker");
        thread.setDaemon(true);
        return thread;
    });

    public ClusterPoller(ClusterInventory inventory, SnapshotPublisher publisher, ClusterWarnings warnings, CollectorConfig config,
            Sharding sharding, CollectorMetrics metrics, KubernetesClient kubernetes) {
        this.inventory = inventory;
        this.observer = new ClusterObserver(new GcsChannels(kubernetes, config.gcs(), metrics.gcsCalls()), inventory,
                config.gcs().deadline(), new RayKvClient(config.gcs().deadline(), config.gcs().clientSwitch(), metrics), config.heartbeat(),
                config.notReconciledAfter());
        this.publisher = publisher;
        this.warnings = warnings;
        this.config = config;
        this.sharding = sharding;
        this.metrics = metrics;
        this.permits = new Semaphore(config.gcs().maxConcurrentCalls());
        this.due = new FairReads<>(Math.max(1, config.gcs().maxConcurrentCallsPerNamespace()), metrics::namespaceShareReached);
        this.progress = new PollerProgress(wedgedAfter(config), System::nanoTime);
    }

    /** Ten rounds of a read that takes its whole deadline, and at least two minutes. */
    static Duration wedgedAfter(CollectorConfig config) {
        Duration tenRounds = config.gcs().deadline().plus(config.pollInterval()).multipliedBy(10);
        return tenRounds.compareTo(Duration.ofMinutes(2)) > 0 ? tenRounds : Duration.ofMinutes(2);
    }

    /** Why the poller makes no progress, or null when it does. */
    String wedged() {
        return progress.wedged(due.size());
    }

    void start(@Observes StartupEvent event) {
        inventory.whenDeleted(warnings::forget);
        long interval = config.pollInterval().toMillis();
        ticker.scheduleWithFixedDelay(this::tick, interval, interval, TimeUnit.MILLISECONDS);
        LOG.infof("polling opted-in clusters every %s (shard %d of %d)", config.pollInterval(), sharding.ordinal(), sharding.count());
    }

    /**
     * Lets the reads in flight finish and their snapshots reach the broker before the Kafka connector closes
     * (which it does after this event): a snapshot sent into a closing producer is lost and logged as an error.
     */
    void stop(@Observes ShutdownEvent event) {
        stopping = true;
        ticker.shutdownNow();
        due.clear();
        int calls = config.gcs().maxConcurrentCalls();
        Duration patience = config.gcs().deadline().plusSeconds(1);
        try {
            if (permits.tryAcquire(calls, patience.toMillis(), TimeUnit.MILLISECONDS)) {
                permits.release(calls);
            }
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
        }
        publisher.awaitAcknowledged(patience);
        observer.close();
    }

    /** One round over the clusters; never lets an error stop the schedule. */
    void tick() {
        try {
            if (!inventory.synced()) {
                return;
            }
            Instant now = Instant.now();
            Set<String> seen = new HashSet<>();
            int misconfigured = 0;
            List<RayCluster> ours = inventory.clusters().stream().filter(cluster -> optedIn(cluster) && sharding.owns(GcsChannels.id(cluster)))
                    .toList();
            Set<String> beyondQuota = NamespaceQuota.beyond(ours, config.maxClustersPerNamespace());
            for (RayCluster cluster : ours) {
                String id = GcsChannels.id(cluster);
                warnings.ofUnknownValues(cluster);
                List<String> refused = observer.endpoint(cluster).refused();
                if (!refused.isEmpty()) {
                    warnings.once(cluster, "GcsSettingRefused", String.join("; ", refused) + ".");
                }
                if (Boolean.TRUE.equals(cluster.getSpec().getEnableInTreeAutoscaling())) {
                    misconfigured++;
                    warnings.once(cluster, "InTreeAutoscalingEnabled", "spec.enableInTreeAutoscaling is true: Ray's own autoscaler "
                            + "would fight Rayscale over the same fields, so Rayscale leaves this cluster alone. Set it to false, "
                            + "or remove the annotation " + Annotations.AUTOSCALING + ".");
                    continue;
                }
                if (beyondQuota.contains(id)) {
                    warnings.once(cluster, "TooManyClustersInNamespace", "namespace " + cluster.getMetadata().getNamespace() + " has more "
                            + "opted-in RayClusters than the " + config.maxClustersPerNamespace() + " one namespace may have served by this "
                            + "Rayscale (rayscale.collector.max-clusters-per-namespace): the oldest are served, and this one is left alone.");
                    continue;
                }
                seen.add(id);
                if (start(id, now)) {
                    due.add(cluster.getMetadata().getNamespace(), Map.entry(id, cluster));
                }
            }
            if (due.size() > permits.availablePermits()) {
                metrics.deferred();
            }
            pump();
            for (String id : tracked.keySet()) {
                // Removed first: a read finishing from now on finds it gone and leaves no metric behind (finish).
                if (!seen.contains(id) && tracked.remove(id) != null) {
                    support.remove(id);
                    observer.forget(id);
                    metrics.forget(id);
                    LOG.infof("%s: no longer watched (deleted, opted out, or another replica's)", id);
                }
            }
            metrics.clusters(tracked.size(), misconfigured, count(Support.UNSUPPORTED), count(Support.SCALE_UP_ONLY), beyondQuota.size());
        } catch (RuntimeException e) {
            LOG.error("collector round failed; the next round will retry", e);
        }
        progress.roundEnded();
    }

    /** Starts reads while call permits are free; each finished read frees its permit and pumps again. */
    private void pump() {
        while (!stopping && due.size() > 0 && permits.tryAcquire()) {
            Map.Entry<String, RayCluster> next = due.poll(permits.availablePermits() + 1);
            if (next == null) {
                permits.release();
                return;
            }
            long start = System.nanoTime();
            observer.observe(next.getKey(), next.getValue()).subscribe().with(observation -> finish(observation, start), failure -> {
                LOG.errorf(failure, "%s: could not make a snapshot", next.getKey());
                backOff(next.getKey());
                done(next.getKey());
            });
        }
    }

    /** Marks the cluster's read as started if one is due now. */
    private boolean start(String id, Instant now) {
        boolean[] started = {false};
        tracked.compute(id, (key, state) -> {
            PollState current = state == null ? PollState.NEW : state;
            started[0] = current.due(now);
            return started[0] ? current.started() : current;
        });
        return started[0];
    }

    private void finish(Observation observation, long start) {
        try {
            String errorCode = observation.gcsErrorCode();
            long took = System.nanoTime() - start;
            tracked.computeIfPresent(observation.id(), (key, state) -> {
                metrics.polled(key, errorCode, took);
                return errorCode == null ? state.answered()
                        : state.failed(observation.observedAt(), config.gcs().backoffInitial(), config.gcs().backoffMax());
            });
            if (tracked.containsKey(observation.id())) {
                publishIfNews(observation);
            } else {
                // Forgotten while this read was under way: what the read left of the cluster goes too.
                observer.forget(observation.id());
            }
        } catch (RuntimeException e) {
            LOG.errorf(e, "%s: could not make a snapshot", observation.id());
            backOff(observation.id());
        } finally {
            done(observation.id());
        }
    }

    /** A read that broke is a failed one: the cluster is read again after the backoff, never left in flight for good. */
    private void backOff(String id) {
        tracked.computeIfPresent(id, (key, state) -> state.failed(Instant.now(), config.gcs().backoffInitial(), config.gcs().backoffMax()));
    }

    private void done(String id) {
        progress.readEnded();
        due.done(id.substring(0, id.indexOf('/')));
        permits.release();
        pump();
    }

    private void publishIfNews(Observation observation) {
        Fingerprint fingerprint = observation.fingerprint();
        long applied = appliedSequence(observation.cluster());
        PollState[] published = {null};
        tracked.computeIfPresent(observation.id(), (key, state) -> {
            if (!state.publishes(fingerprint, observation.observedAt(), config.heartbeat())) {
                return state;
            }
            published[0] = state.published(fingerprint, observation.observedAt(), applied);
            return published[0];
        });
        if (published[0] == null) {
            return;
        }
        ClusterSnapshot snapshot;
        SupportMatrix.Assessment assessed = observation.support();
        try {
            snapshot = SnapshotAssembler.assemble(observation.cluster(), observation.pods(), observation.gcs(), observation.kubernetes(),
                    observation.observedAt(), published[0].lastSequence(), assessed.versions());
        } catch (IllegalArgumentException invalid) {
            warnings.once(observation.cluster(), "InvalidRayClusterForRayscale", "Rayscale cannot read this cluster: " + invalid.getMessage());
            return;
        }
        tellSupport(observation, assessed);
        if (observation.floorRefused() != null) {
            warnings.once(observation.cluster(), "ResourceRequestsRefused", "Rayscale cannot use what request_resources() wrote in the "
                    + "GCS (" + observation.floorRefused() + "); it keeps the floor it read last.");
        }
        if (observation.kubernetes().notReconciled() != null) {
            warnings.once(observation.cluster(), "SpecNotReconciled", "Rayscale holds this cluster at its size: "
                    + observation.kubernetes().notReconciled() + ".");
        }
        publisher.publish(snapshot, observation.cluster(), observation.observedAt());
    }

    /** Keeps what Rayscale does for the cluster, and tells its owners, in a Warning Event, when that is less than full service. */
    private void tellSupport(Observation observation, SupportMatrix.Assessment assessed) {
        if (tracked.containsKey(observation.id())) {
            support.put(observation.id(), assessed.versions().support());
        }
        if (assessed.warning() != null) {
            String limits = String.join("; ", assessed.versions().limits());
            warnings.once(observation.cluster(), assessed.warning(), assessed.versions().support() == Support.UNSUPPORTED
                    ? "Rayscale leaves this cluster alone: " + limits + "." : "Rayscale adds capacity to this cluster but removes none: " + limits + ".");
        }
    }

    private int count(Support level) {
        return (int) support.values().stream().filter(level::equals).count();
    }

    /** The snapshot sequence of the newest decision applied to the cluster, from the actuator's mark; 0 if none. */
    private static long appliedSequence(RayCluster cluster) {
        Map<String, String> annotations = cluster.getMetadata().getAnnotations();
        String mark = annotations == null ? null : annotations.get(Annotations.LAST_APPLIED_SEQUENCE);
        try {
            return mark == null ? 0 : Long.parseLong(mark.trim());
        } catch (NumberFormatException corrupt) {
            return 0;
        }
    }

    static boolean optedIn(RayCluster cluster) {
        return Annotations.optedIn(cluster.getMetadata().getAnnotations());
    }

    /** Clusters this replica reads now. */
    public Set<String> trackedClusters() {
        return Set.copyOf(tracked.keySet());
    }
}
