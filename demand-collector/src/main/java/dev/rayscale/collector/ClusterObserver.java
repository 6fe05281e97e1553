package dev.rayscale.collector;

import dev.rayscale.clients.GcsChannels;
import dev.rayscale.clients.GcsEndpoint;
import dev.rayscale.collector.assembly.GcsProcess;
import dev.rayscale.collector.assembly.GcsRead;
import dev.rayscale.collector.assembly.RayPod;
import dev.rayscale.collector.assembly.RayState;
import dev.rayscale.collector.assembly.SnapshotAssembler;
import dev.rayscale.collector.assembly.SpecLag;
import dev.rayscale.events.KubernetesSource;
import dev.rayscale.events.SourceStatus;
import dev.rayscale.gcs.proto.ClusterResourceConstraint;
import dev.rayscale.gcs.proto.GetClusterResourceStateReply;
import dev.rayscale.gcs.proto.GetClusterResourceStateRequest;
import dev.rayscale.gcs.proto.MutinyAutoscalerStateServiceGrpc;
import io.grpc.Channel;
import io.grpc.Status;
import io.grpc.StatusException;
import io.grpc.StatusRuntimeException;
import io.ray.v1.RayCluster;
import io.smallrye.mutiny.Uni;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * Reads one cluster: a non-blocking {@code GetClusterResourceState} call to its GCS and, when due, the
 * {@code request_resources} floor from the GCS's KV ({@link RayKvClient}), each with a deadline, joined on their answers with
 * the RayCluster and pods the informers hold then. A GCS process seen for the first time, and each one every
 * {@link #RECHECK}, is also checked ({@link RayKvClient#check}): the Ray version its head recorded, and the client switch. A
 * failed read is an observation saying why, never an error and never an empty demand.
 */
final class ClusterObserver implements AutoCloseable {

    /** Failures after which the channel's credentials are read again. */
    private static final Set<String> CREDENTIALS_REFUSED = Set.of("UNAUTHENTICATED", "PERMISSION_DENIED");
    /** How often a GCS process already checked is checked again: its switch may have been set back by hand. */
    static final Duration RECHECK = Duration.ofMinutes(1);

    private final GcsChannels channels;
    private final ClusterInventory inventory;
    private final Duration deadline;
    private final RayKvClient kv;
    /** How often the KV's request_resources floor is read when nothing says it changed: the heartbeat (5 s, Ray's v1 monitor loop). */
    private final Duration floorEvery;

    /** A read of the KV's floor, and the GCS's own constraint when it was made. */
    private record FloorRead(List<ClusterResourceConstraint> gcs, RayKvClient.Requests kv, Instant at) {
    }

    /** Each cluster's last read of the KV's floor. */
    private final Map<String, FloorRead> floors = new ConcurrentHashMap<>();
    /** Each cluster's GCS process, replaced whole on every read. */
    private final Map<String, GcsProcess> processes = new ConcurrentHashMap<>();
    /** How long KubeRay has not acted on each cluster's spec, for the clusters where it has not. */
    private final Map<String, SpecLag> lags = new ConcurrentHashMap<>();
    private final Duration notReconciledAfter;

    /** Where and how the cluster's GCS is reached, with what of it the cluster asked for and was refused. */
    GcsEndpoint endpoint(RayCluster cluster) {
        return channels.endpoint(cluster);
    }

    ClusterObserver(GcsChannels channels, ClusterInventory inventory, Duration deadline, RayKvClient kv, Duration floorEvery,
            Duration notReconciledAfter) {
        this.floorEvery = floorEvery;
        this.notReconciledAfter = notReconciledAfter;
        this.channels = channels;
        this.inventory = inventory;
        this.deadline = deadline;
        this.kv = kv;
    }

    /**
     * {@code last_seen_cluster_resource_state_version} is always 0, as Ray's own client sends it (fact A1.4): a
     * version remembered from before a GCS restart would be above the restarted GCS's counter, which RAY_CHECKs
     * it and exits (facts A1.1, A1.3).
     */
    Uni<Observation> observe(String id, RayCluster cluster) {
        Channel channel;
        try {
            channel = channels.channel(id, cluster);
        } catch (RuntimeException cannotCall) {
            return Uni.createFrom().item(() -> joined(id, cluster, new Answer(null, cannotCall), RayKvClient.Requests.UNREADABLE, null));
        }
        Uni<Answer> state = MutinyAutoscalerStateServiceGrpc.newMutinyStub(channel)
                .withDeadlineAfter(deadline.toMillis(), TimeUnit.MILLISECONDS)
                .getClusterResourceState(GetClusterResourceStateRequest.getDefaultInstance())
                .onItemOrFailure().transform(Answer::new);
        return state.chain(answer -> Uni.combine().all().unis(floor(id, channel, answer), rayVersion(id, channel, answer)).asTuple()
                .map(both -> joined(id, cluster, answer, both.getItem1(), both.getItem2())));
    }

    /**
     * The {@code request_resources} floor from the KV, read again every heartbeat (by default as often as Ray's own v1
     * monitor reads it) or at once when the GCS's own constraint changed since the last read (a call on the v2 path,
     * which writes the KV too); read on every poll, the KV doubled the collector's GCS calls and its CPU. A read that says
     * nothing (the KV unreadable, its value refused) leaves the floor as last read, and is tried again at the next poll.
     */
    private Uni<RayKvClient.Requests> floor(String id, Channel channel, Answer state) {
        if (state.reply() == null || !state.reply().hasClusterResourceState()) {
            return Uni.createFrom().item(RayKvClient.Requests.UNREADABLE);
        }
        List<ClusterResourceConstraint> gcs = state.reply().getClusterResourceState().getClusterResourceConstraintsList();
        Instant now = Instant.now();
        FloorRead last = floors.get(id);
        if (last != null && last.gcs().equals(gcs) && now.isBefore(last.at().plus(floorEvery))) {
            return Uni.createFrom().item(last.kv());
        }
        return kv.requests(channel, last == null ? null : last.kv()).map(read -> {
            if (read.conclusive()) {
                floors.put(id, new FloorRead(gcs, read, now));
                return read;
            }
            return last == null ? read : new RayKvClient.Requests(last.kv().kind(), last.kv().constraints(), read.problem(), last.kv().value());
        });
    }

    /** The Ray version the cluster's GCS process recorded, checking the process first if it is due. */
    private Uni<String> rayVersion(String id, Channel channel, Answer state) {
        boolean answered = state.reply() != null && state.reply().hasClusterResourceState();
        boolean noService = state.failure() != null && GcsRead.NO_AUTOSCALER_SERVICE.equals(failed(state.failure()).code());
        if (!answered && !noService) {
            GcsProcess known = processes.get(id);
            return Uni.createFrom().item(known == null ? null : known.rayVersion());
        }
        String session = answered ? state.reply().getClusterResourceState().getClusterSessionName() : null;
        long version = answered ? state.reply().getClusterResourceState().getClusterResourceStateVersion() : 0;
        Instant now = Instant.now();
        GcsProcess before = processes.getOrDefault(id, GcsProcess.UNSEEN);
        GcsProcess process = before.read(session, version);
        if (!before.checkDue(session, version, now, RECHECK)) {
            processes.put(id, process);
            return Uni.createFrom().item(process.rayVersion());
        }
        processes.put(id, process.checked(null, now));
        return kv.check(channel, !noService).map(recorded -> {
            // A check that read no version is tried again soon, not a minute later: until then the cluster is not scaled down.
            Instant checkedAt = recorded != null ? now : now.minus(RECHECK).plus(floorEvery);
            GcsProcess checked = processes.computeIfPresent(id, (key, current) -> current.checked(recorded, checkedAt));
            return checked == null ? recorded : checked.rayVersion();
        });
    }

    private Observation joined(String id, RayCluster cluster, Answer state, RayKvClient.Requests requests, String rayVersion) {
        List<RayPod> pods = inventory.pods(id);
        GcsRead read = state.reply() != null ? answered(state.reply(), pods, requests) : failed(state.failure());
        if (read instanceof GcsRead.Failed failed && CREDENTIALS_REFUSED.contains(failed.code())) {
            channels.release(id);
        }
        Instant now = Instant.now();
        SpecLag lag = lags.compute(id, (key, before) -> SpecLag.of(before, cluster, now));
        KubernetesSource kubernetes = (inventory.watching()
                ? KubernetesSource.ok(cluster.getMetadata().getResourceVersion(), generation(cluster))
                : new KubernetesSource(SourceStatus.STALE, "a watch on RayClusters or pods is reconnecting",
                        cluster.getMetadata().getResourceVersion(), generation(cluster)))
                .notReconciled(lag == null ? null : lag.problem(now, notReconciledAfter));
        return new Observation(id, cluster, pods, read, kubernetes, now, rayVersion, requests.problem());
    }

    /**
     * The GCS's answer, its constraint replaced by the KV's (what the latest call asked for) when the KV says what it is;
     * the GCS's own when no call wrote one, or when the KV has never been read.
     */
    private GcsRead answered(GetClusterResourceStateReply reply, List<RayPod> pods, RayKvClient.Requests requests) {
        if (!reply.hasClusterResourceState()) {
            return new GcsRead.Failed(GcsRead.INVALID_REPLY, "the GCS answered without a cluster_resource_state");
        }
        RayState state;
        try {
            state = RayState.of(reply.getClusterResourceState(), SnapshotAssembler.replicas(pods)::get);
        } catch (IllegalArgumentException | ArithmeticException unusable) {
            // A head pod answers what it likes: a NaN or an amount beyond Ray's fixed point is a read that failed, not demand.
            return new GcsRead.Failed(GcsRead.INVALID_REPLY, "the GCS's answer cannot be used: " + unusable.getMessage());
        }
        return new GcsRead.Answered(requests.constraints() == null ? state : state.withConstraints(requests.constraints()));
    }

    private static GcsRead.Failed failed(Throwable failure) {
        if (!(failure instanceof StatusRuntimeException) && !(failure instanceof StatusException)) {
            return new GcsRead.Failed("CLIENT_ERROR", String.valueOf(failure.getMessage()));
        }
        Status status = Status.fromThrowable(failure);
        return new GcsRead.Failed(status.getCode().name(), status.getDescription() != null ? status.getDescription() : String.valueOf(failure.getMessage()));
    }

    static long generation(RayCluster cluster) {
        return cluster.getMetadata().getGeneration() == null ? 0 : cluster.getMetadata().getGeneration();
    }

    /** Forgets the cluster's channel and GCS process: it is no longer read. */
    void forget(String id) {
        channels.release(id);
        processes.remove(id);
        floors.remove(id);
        lags.remove(id);
    }

    @Override
    public void close() {
        channels.close();
    }

    /** The state call's reply, or why there is none. */
    private record Answer(GetClusterResourceStateReply reply, Throwable failure) {
    }
}
