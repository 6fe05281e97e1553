package dev.rayscale.collector;

import dev.rayscale.clients.GcsChannels;
import dev.rayscale.collector.assembly.GcsRead;
import dev.rayscale.collector.assembly.RayPod;
import dev.rayscale.collector.assembly.RayState;
import dev.rayscale.collector.assembly.SnapshotAssembler;
import dev.rayscale.events.KubernetesSource;
import dev.rayscale.events.SourceStatus;
import dev.rayscale.gcs.proto.GetClusterResourceStateReply;
import dev.rayscale.gcs.proto.GetClusterResourceStateRequest;
import dev.rayscale.gcs.proto.MutinyAutoscalerStateServiceGrpc;
import io.grpc.Status;
import io.grpc.StatusException;
import io.grpc.StatusRuntimeException;
import io.ray.v1.RayCluster;
import io.smallrye.mutiny.Uni;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * Reads one cluster: one non-blocking {@code GetClusterResourceState} call to its GCS, with a deadline, joined on
 * its answer with the RayCluster and pods the informers hold then. A failed read is an observation saying why,
 * never an error and never an empty demand.
 */
final class ClusterObserver implements AutoCloseable {

    /** Failures after which the channel's credentials are read again. */
    private static final Set<String> CREDENTIALS_REFUSED = Set.of("UNAUTHENTICATED", "PERMISSION_DENIED");

    private final GcsChannels channels;
    private final ClusterInventory inventory;
    private final Duration deadline;

    ClusterObserver(GcsChannels channels, ClusterInventory inventory, Duration deadline) {
        this.channels = channels;
        this.inventory = inventory;
        this.deadline = deadline;
    }

    /**
     * {@code last_seen_cluster_resource_state_version} is always 0, as Ray's own client sends it (fact A1.4): a
     * version remembered from before a GCS restart would be above the restarted GCS's counter, which RAY_CHECKs
     * it and exits (facts A1.1, A1.3).
     */
    Uni<Observation> observe(String id, RayCluster cluster) {
        Uni<GetClusterResourceStateReply> call;
        try {
            call = MutinyAutoscalerStateServiceGrpc.newMutinyStub(channels.channel(id, cluster))
                    .withDeadlineAfter(deadline.toMillis(), TimeUnit.MILLISECONDS)
                    .getClusterResourceState(GetClusterResourceStateRequest.getDefaultInstance());
        } catch (RuntimeException cannotCall) {
            call = Uni.createFrom().failure(cannotCall);
        }
        return call.onItemOrFailure().transform((reply, failure) -> joined(id, cluster, reply, failure));
    }

    private Observation joined(String id, RayCluster cluster, GetClusterResourceStateReply reply, Throwable failure) {
        List<RayPod> pods = inventory.pods(id);
        GcsRead read = reply != null ? answered(reply, pods) : failed(failure);
        if (read instanceof GcsRead.Failed failed && CREDENTIALS_REFUSED.contains(failed.code())) {
            channels.release(id);
        }
        KubernetesSource kubernetes = inventory.watching()
                ? KubernetesSource.ok(cluster.getMetadata().getResourceVersion(), generation(cluster))
                : new KubernetesSource(SourceStatus.STALE, "a watch on RayClusters or pods is reconnecting",
                        cluster.getMetadata().getResourceVersion(), generation(cluster));
        return new Observation(id, cluster, pods, read, kubernetes, Instant.now());
    }

    private GcsRead answered(GetClusterResourceStateReply reply, List<RayPod> pods) {
        if (!reply.hasClusterResourceState()) {
            return new GcsRead.Failed("INVALID_REPLY", "the GCS answered without a cluster_resource_state");
        }
        return new GcsRead.Answered(RayState.of(reply.getClusterResourceState(), SnapshotAssembler.replicas(pods)::get));
    }

    private static GcsRead failed(Throwable failure) {
        if (!(failure instanceof StatusRuntimeException) && !(failure instanceof StatusException)) {
            return new GcsRead.Failed("CLIENT_ERROR", String.valueOf(failure.getMessage()));
        }
        Status status = Status.fromThrowable(failure);
        return new GcsRead.Failed(status.getCode().name(), status.getDescription() != null ? status.getDescription() : String.valueOf(failure.getMessage()));
    }

    static long generation(RayCluster cluster) {
        return cluster.getMetadata().getGeneration() == null ? 0 : cluster.getMetadata().getGeneration();
    }

    /** Forgets the cluster's channel: it is no longer read. */
    void forget(String id) {
        channels.release(id);
    }

    @Override
    public void close() {
        channels.close();
    }
}
