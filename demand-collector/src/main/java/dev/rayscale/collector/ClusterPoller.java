package dev.rayscale.collector;

import dev.rayscale.collector.assembly.GcsRead;
import dev.rayscale.collector.assembly.RayState;
import dev.rayscale.collector.assembly.SnapshotAssembler;
import dev.rayscale.events.ClusterSnapshot;
import dev.rayscale.events.KubernetesSource;
import dev.rayscale.events.SourceStatus;
import dev.rayscale.gcs.GcsChannels;
import dev.rayscale.gcs.proto.GetClusterResourceStateReply;
import dev.rayscale.gcs.proto.GetClusterResourceStateRequest;
import dev.rayscale.gcs.proto.MutinyAutoscalerStateServiceGrpc;
import dev.rayscale.kuberay.ClusterEvents;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.grpc.Status;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.ray.v1.RayCluster;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.jboss.logging.Logger;

/**
 * Reads every opted-in cluster this replica owns: each poll interval, one non-blocking
 * {@code GetClusterResourceState} call per cluster (at most {@code max-concurrent-calls} in flight,
 * a deadline on each, exponential backoff per failing cluster), then a snapshot when something
 * changed — GCS state version, RayCluster generation, the pod set — or the heartbeat is due.
 *
 * <p>A failed read is a snapshot saying UNAVAILABLE, never an empty one. No snapshot is made before
 * the informers have synced. A cluster deleted or opted out is dropped and its channel closed.
 */
@ApplicationScoped
public class ClusterPoller {

    public static final String OPT_IN_ANNOTATION = "rayscale.dev/autoscaling";
    public static final String OPT_IN_VALUE = "enabled";
    private static final Logger LOG = Logger.getLogger(ClusterPoller.class);

    private final ClusterInventory inventory;
    private final SnapshotPublisher publisher;
    private final CollectorConfig config;
    private final Sharding sharding;
    private final CollectorMetrics metrics;
    private final GcsChannels channels;
    private final SnapshotAssembler assembler;
    private final ClusterEvents events;
    private final Semaphore permits;
    private final Map<String, Tracked> tracked = new ConcurrentHashMap<>();
    /** Clusters due for a read, waiting for one of the concurrent-call permits. */
    private final java.util.Queue<Map.Entry<Tracked, RayCluster>> due = new java.util.concurrent.ConcurrentLinkedQueue<>();
    private final Set<String> warned = ConcurrentHashMap.newKeySet();
    private final ScheduledExecutorService ticker = Executors.newSingleThreadScheduledExecutor(runnable -> {
        Thread thread = new Thread(runnable, "collector-ticker");
        thread.setDaemon(true);
        return thread;
    });

    public ClusterPoller(ClusterInventory inventory, SnapshotPublisher publisher, CollectorConfig config, Sharding sharding,
            CollectorMetrics metrics, KubernetesClient kubernetes) {
        this.inventory = inventory;
        this.publisher = publisher;
        this.config = config;
        this.sharding = sharding;
        this.metrics = metrics;
        this.channels = new GcsChannels(kubernetes, config.gcs().port(), config.gcs().tls());
        this.assembler = new SnapshotAssembler(config.replicaLabel());
        this.events = new ClusterEvents(kubernetes, "rayscale-demand-collector");
        this.permits = new Semaphore(config.gcs().maxConcurrentCalls());
    }

    void start(@Observes StartupEvent event) {
        long interval = config.pollInterval().toMillis();
        ticker.scheduleWithFixedDelay(this::tick, interval, interval, TimeUnit.MILLISECONDS);
        LOG.infof("polling opted-in clusters every %s (shard %d of %d)", config.pollInterval(), sharding.ordinal(), sharding.count());
    }

    void stop(@Observes ShutdownEvent event) {
        ticker.shutdownNow();
        channels.close();
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
            for (RayCluster cluster : inventory.clusters()) {
                String id = cluster.getMetadata().getNamespace() + "/" + cluster.getMetadata().getName();
                if (!optedIn(cluster) || !sharding.owns(id)) {
                    continue;
                }
                if (Boolean.TRUE.equals(cluster.getSpec().getEnableInTreeAutoscaling())) {
                    misconfigured++;
                    warnOnce(cluster, "InTreeAutoscalingEnabled", "spec.enableInTreeAutoscaling is true: Ray's own autoscaler "
                            + "would fight Rayscale over the same fields, so Rayscale leaves this cluster alone. Set it to false, "
                            + "or remove the annotation " + OPT_IN_ANNOTATION + ".");
                    continue;
                }
                seen.add(id);
                Tracked state = tracked.computeIfAbsent(id, Tracked::new);
                if (due(state, now)) {
                    due.add(Map.entry(state, cluster));
                }
            }
            if (due.size() > permits.availablePermits()) {
                metrics.deferred();
            }
            pump();
            tracked.keySet().removeIf(id -> {
                if (seen.contains(id)) {
                    return false;
                }
                channels.release(id);
                LOG.infof("%s: no longer watched (deleted, opted out, or another replica's)", id);
                return true;
            });
            metrics.watched.set(tracked.size());
            metrics.misconfigured.set(misconfigured);
        } catch (RuntimeException e) {
            LOG.error("collector round failed; the next round will retry", e);
        }
    }

    /** Starts reads while call permits are free; each finished read frees its permit and pumps again. */
    private void pump() {
        while (!due.isEmpty() && permits.tryAcquire()) {
            Map.Entry<Tracked, RayCluster> next = due.poll();
            if (next == null) {
                permits.release();
                return;
            }
            poll(next.getKey(), next.getValue());
        }
    }

    private static boolean due(Tracked state, Instant now) {
        synchronized (state) {
            if (state.inFlight || now.isBefore(state.nextAttempt)) {
                return false;
            }
            state.inFlight = true;
            return true;
        }
    }

    private void poll(Tracked state, RayCluster cluster) {
        long start = System.nanoTime();
        try {
            MutinyAutoscalerStateServiceGrpc.newMutinyStub(channels.channel(state.id, cluster))
                    .withDeadlineAfter(config.gcs().deadline().toMillis(), TimeUnit.MILLISECONDS)
                    .getClusterResourceState(GetClusterResourceStateRequest.newBuilder()
                            .setLastSeenClusterResourceStateVersion(state.lastStateVersion).build())
                    .subscribe().with(reply -> finish(state, cluster, reply, null, start),
                            failure -> finish(state, cluster, null, failure, start));
        } catch (RuntimeException cannotCall) {
            finish(state, cluster, null, cannotCall, start);
        }
    }

    private void finish(Tracked state, RayCluster cluster, GetClusterResourceStateReply reply, Throwable failure, long start) {
        try {
            Instant observedAt = Instant.now();
            List<Pod> pods = inventory.pods(state.id);
            GcsRead read = reply != null ? answered(reply, pods) : failed(failure);
            String errorCode = read instanceof GcsRead.Failed failed ? code(failed.error()) : null;
            metrics.polled(state.id, errorCode, System.nanoTime() - start);
            synchronized (state) {
                if (errorCode == null) {
                    state.failures = 0;
                    state.nextAttempt = Instant.EPOCH;
                    state.lastStateVersion = ((GcsRead.Answered) read).state().stateVersion();
                } else {
                    state.failures++;
                    state.nextAttempt = observedAt.plus(backoff(state.failures));
                    if ("UNAUTHENTICATED".equals(errorCode) || "PERMISSION_DENIED".equals(errorCode)) {
                        channels.release(state.id);
                    }
                }
            }
            publishIfDue(state, cluster, pods, read, observedAt);
        } catch (RuntimeException e) {
            LOG.errorf(e, "%s: could not make a snapshot", state.id);
        } finally {
            synchronized (state) {
                state.inFlight = false;
            }
            permits.release();
            pump();
        }
    }

    private GcsRead answered(GetClusterResourceStateReply reply, List<Pod> pods) {
        if (!reply.hasClusterResourceState()) {
            return new GcsRead.Failed("INVALID_REPLY: the GCS answered without a cluster_resource_state");
        }
        return new GcsRead.Answered(RayState.of(reply.getClusterResourceState(), pod -> assembler.replicaOf(pods, pod)));
    }

    private static GcsRead failed(Throwable failure) {
        Status status = Status.fromThrowable(failure);
        String description = status.getDescription() != null ? status.getDescription() : String.valueOf(failure.getMessage());
        return new GcsRead.Failed(status.getCode() == Status.Code.UNKNOWN && !(failure instanceof io.grpc.StatusRuntimeException)
                ? "CLIENT_ERROR: " + failure.getMessage() : status.getCode() + ": " + description);
    }

    private Duration backoff(int failures) {
        Duration initial = config.gcs().backoffInitial();
        Duration wait = initial.multipliedBy(1L << Math.min(20, failures - 1));
        return wait.compareTo(config.gcs().backoffMax()) > 0 ? config.gcs().backoffMax() : wait;
    }

    private void publishIfDue(Tracked state, RayCluster cluster, List<Pod> pods, GcsRead read, Instant observedAt) {
        String fingerprint = fingerprint(cluster, pods, read);
        synchronized (state) {
            boolean changed = !fingerprint.equals(state.lastFingerprint);
            boolean heartbeat = !observedAt.isBefore(state.lastPublished.plus(config.heartbeat()));
            if (!changed && !heartbeat) {
                return;
            }
            state.lastFingerprint = fingerprint;
            state.lastPublished = observedAt;
        }
        KubernetesSource kubernetes = inventory.watching()
                ? KubernetesSource.ok(cluster.getMetadata().getResourceVersion(), generation(cluster))
                : new KubernetesSource(SourceStatus.STALE, "a watch on RayClusters or pods is reconnecting",
                        cluster.getMetadata().getResourceVersion(), generation(cluster));
        ClusterSnapshot snapshot;
        try {
            snapshot = assembler.assemble(cluster, pods, read, kubernetes, observedAt, state.nextSequence(observedAt));
        } catch (IllegalArgumentException invalid) {
            warnOnce(cluster, "InvalidRayClusterForRayscale", "Rayscale cannot read this cluster: " + invalid.getMessage());
            return;
        }
        publisher.publish(snapshot).whenComplete((sent, failure) -> {
            if (failure == null) {
                metrics.published(Duration.between(observedAt, Instant.now()));
            } else {
                LOG.errorf(failure, "%s: snapshot %d was not published", state.id, snapshot.sequence());
            }
        });
    }

    /** What decides whether a snapshot is news: the GCS read, the spec generation and the pods. */
    private static String fingerprint(RayCluster cluster, List<Pod> pods, GcsRead read) {
        String gcs = read instanceof GcsRead.Answered answered ? "v" + answered.state().stateVersion()
                : "failed:" + code(((GcsRead.Failed) read).error());
        String podSet = pods.stream().sorted(Comparator.comparing(pod -> pod.getMetadata().getName()))
                .map(pod -> pod.getMetadata().getName() + "=" + (pod.getStatus() == null ? "" : pod.getStatus().getPhase())
                        + (pod.getMetadata().getDeletionTimestamp() == null ? "" : "!"))
                .collect(Collectors.joining(","));
        return gcs + "|g" + generation(cluster) + "|" + podSet;
    }

    private static String code(String error) {
        int colon = error.indexOf(':');
        return colon > 0 ? error.substring(0, colon) : error;
    }

    private static long generation(RayCluster cluster) {
        return cluster.getMetadata().getGeneration() == null ? 0 : cluster.getMetadata().getGeneration();
    }

    private void warnOnce(RayCluster cluster, String reason, String message) {
        if (warned.add(cluster.getMetadata().getUid() + "/" + generation(cluster) + "/" + reason)) {
            LOG.warnf("%s/%s: %s", cluster.getMetadata().getNamespace(), cluster.getMetadata().getName(), message);
            events.record(cluster, ClusterEvents.Type.Warning, reason, message);
        }
    }

    static boolean optedIn(RayCluster cluster) {
        Map<String, String> annotations = cluster.getMetadata().getAnnotations();
        return annotations != null && OPT_IN_VALUE.equals(annotations.get(OPT_IN_ANNOTATION));
    }

    /** Clusters this replica reads now. */
    public Set<String> trackedClusters() {
        return Set.copyOf(tracked.keySet());
    }
}
