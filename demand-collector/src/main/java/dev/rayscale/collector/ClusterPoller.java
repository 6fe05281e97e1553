package dev.rayscale.collector;

import dev.rayscale.clients.ClusterEvents;
import dev.rayscale.clients.GcsChannels;
import dev.rayscale.collector.assembly.GcsRead;
import dev.rayscale.collector.assembly.PollState;
import dev.rayscale.collector.assembly.RayState;
import dev.rayscale.collector.assembly.SnapshotAssembler;
import dev.rayscale.events.Annotations;
import dev.rayscale.events.ClusterSnapshot;
import dev.rayscale.events.KubernetesSource;
import dev.rayscale.events.SourceStatus;
import dev.rayscale.gcs.proto.GetClusterResourceStateReply;
import dev.rayscale.gcs.proto.GetClusterResourceStateRequest;
import dev.rayscale.gcs.proto.MutinyAutoscalerStateServiceGrpc;
import dev.rayscale.service.Causes;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.grpc.Status;
import io.grpc.StatusException;
import io.grpc.StatusRuntimeException;
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
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.common.errors.RecordTooLargeException;
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

    public static final String OPT_IN_ANNOTATION = Annotations.AUTOSCALING;
    public static final String OPT_IN_VALUE = Annotations.AUTOSCALING_ENABLED;
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
    /** Each tracked cluster's poll state; replaced whole, atomically, on every transition. */
    private final Map<String, PollState> tracked = new ConcurrentHashMap<>();
    /** Clusters due for a read, waiting for one of the concurrent-call permits. */
    private final Queue<Map.Entry<String, RayCluster>> due = new ConcurrentLinkedQueue<>();
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
                if (start(id, now)) {
                    due.add(Map.entry(id, cluster));
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
            metrics.clusters(tracked.size(), misconfigured);
        } catch (RuntimeException e) {
            LOG.error("collector round failed; the next round will retry", e);
        }
    }

    /** Starts reads while call permits are free; each finished read frees its permit and pumps again. */
    private void pump() {
        while (!due.isEmpty() && permits.tryAcquire()) {
            Map.Entry<String, RayCluster> next = due.poll();
            if (next == null) {
                permits.release();
                return;
            }
            poll(next.getKey(), next.getValue());
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

    /**
     * One read of the cluster's GCS. {@code last_seen_cluster_resource_state_version} is always 0, as
     * Ray's own client sends it (fact A1.4): a version remembered from before a GCS restart would be
     * above the restarted GCS's counter, which RAY_CHECKs it and exits (facts A1.1, A1.3).
     */
    private void poll(String id, RayCluster cluster) {
        long start = System.nanoTime();
        try {
            MutinyAutoscalerStateServiceGrpc.newMutinyStub(channels.channel(id, cluster))
                    .withDeadlineAfter(config.gcs().deadline().toMillis(), TimeUnit.MILLISECONDS)
                    .getClusterResourceState(GetClusterResourceStateRequest.getDefaultInstance())
                    .subscribe().with(reply -> finish(id, cluster, reply, null, start),
                            failure -> finish(id, cluster, null, failure, start));
        } catch (RuntimeException cannotCall) {
            finish(id, cluster, null, cannotCall, start);
        }
    }

    private void finish(String id, RayCluster cluster, GetClusterResourceStateReply reply, Throwable failure, long start) {
        try {
            Instant observedAt = Instant.now();
            List<Pod> pods = inventory.pods(id);
            GcsRead read = reply != null ? answered(reply, pods) : failed(failure);
            String errorCode = read instanceof GcsRead.Failed failed ? failed.code() : null;
            metrics.polled(id, errorCode, System.nanoTime() - start);
            tracked.computeIfPresent(id, (key, state) -> errorCode == null ? state.answered()
                    : state.failed(observedAt, config.gcs().backoffInitial(), config.gcs().backoffMax()));
            if ("UNAUTHENTICATED".equals(errorCode) || "PERMISSION_DENIED".equals(errorCode)) {
                channels.release(id);
            }
            publishIfDue(id, cluster, pods, read, observedAt);
        } catch (RuntimeException e) {
            LOG.errorf(e, "%s: could not make a snapshot", id);
        } finally {
            permits.release();
            pump();
        }
    }

    private GcsRead answered(GetClusterResourceStateReply reply, List<Pod> pods) {
        if (!reply.hasClusterResourceState()) {
            return new GcsRead.Failed("INVALID_REPLY", "the GCS answered without a cluster_resource_state");
        }
        return new GcsRead.Answered(RayState.of(reply.getClusterResourceState(), pod -> assembler.replicaOf(pods, pod)));
    }

    private static GcsRead failed(Throwable failure) {
        if (!(failure instanceof StatusRuntimeException) && !(failure instanceof StatusException)) {
            return new GcsRead.Failed("CLIENT_ERROR", String.valueOf(failure.getMessage()));
        }
        Status status = Status.fromThrowable(failure);
        return new GcsRead.Failed(status.getCode().name(), status.getDescription() != null ? status.getDescription() : String.valueOf(failure.getMessage()));
    }

    private void publishIfDue(String id, RayCluster cluster, List<Pod> pods, GcsRead read, Instant observedAt) {
        String fingerprint = SnapshotAssembler.fingerprint(cluster, pods, read);
        long applied = appliedSequence(cluster);
        PollState[] published = {null};
        tracked.computeIfPresent(id, (key, state) -> {
            if (!state.publishes(fingerprint, observedAt, config.heartbeat())) {
                return state;
            }
            published[0] = state.published(fingerprint, observedAt, applied);
            return published[0];
        });
        if (published[0] == null) {
            return;
        }
        KubernetesSource kubernetes = inventory.watching()
                ? KubernetesSource.ok(cluster.getMetadata().getResourceVersion(), generation(cluster))
                : new KubernetesSource(SourceStatus.STALE, "a watch on RayClusters or pods is reconnecting",
                        cluster.getMetadata().getResourceVersion(), generation(cluster));
        ClusterSnapshot snapshot;
        try {
            snapshot = assembler.assemble(cluster, pods, read, kubernetes, observedAt, published[0].lastSequence());
        } catch (IllegalArgumentException invalid) {
            warnOnce(cluster, "InvalidRayClusterForRayscale", "Rayscale cannot read this cluster: " + invalid.getMessage());
            return;
        }
        publisher.publish(snapshot).whenComplete((sent, failure) -> {
            if (failure == null) {
                metrics.published(Duration.between(observedAt, Instant.now()));
            } else if (Causes.root(failure) instanceof RecordTooLargeException tooLarge) {
                // Publishing it again will not make it fit: said once per generation of the cluster, counted every time.
                metrics.tooLarge(id);
                warnOnce(cluster, "SnapshotTooLarge", "Rayscale cannot publish this cluster's snapshots, so it is not scaling it: "
                        + tooLarge.getMessage() + " (raise the collector's max.request.size and the rayscale.snapshots topic's "
                        + "max.message.bytes, see deploy/README.md)");
            } else {
                LOG.errorf(failure, "%s: snapshot %d was not published", id, snapshot.sequence());
            }
        });
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
