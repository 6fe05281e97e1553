package dev.rayscale.actuator;

import com.google.protobuf.ByteString;
import dev.rayscale.actuator.core.ActuationPlan;
import dev.rayscale.actuator.core.LiveNodes;
import dev.rayscale.clients.GcsChannels;
import dev.rayscale.events.PodDeletion;
import dev.rayscale.events.ScaleDecision;
import dev.rayscale.gcs.proto.AutoscalerStateServiceGrpc;
import dev.rayscale.gcs.proto.ClusterResourceState;
import dev.rayscale.gcs.proto.DrainNodeReason;
import dev.rayscale.gcs.proto.DrainNodeRequest;
import dev.rayscale.gcs.proto.GetClusterResourceStateRequest;
import dev.rayscale.gcs.proto.MutinyAutoscalerStateServiceGrpc;
import dev.rayscale.gcs.proto.NodeState;
import dev.rayscale.gcs.proto.NodeStatus;
import dev.rayscale.gcs.proto.ReportAutoscalingStateRequest;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.grpc.Status;
import io.quarkus.runtime.ShutdownEvent;
import io.ray.v1.RayCluster;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.jboss.logging.Logger;

/**
 * What the actuator asks of a cluster's GCS: to drain a node before its pod is deleted (reason
 * IDLE_TERMINATION, which the raylet refuses if the node has become busy), and to record what the
 * autoscaler is doing so that {@code ray status} inside the cluster shows it.
 */
@ApplicationScoped
public class RayGcs {

    private static final Logger LOG = Logger.getLogger(RayGcs.class);

    /** Drains asked of one GCS at once. */
    static final int DRAINS_IN_FLIGHT = 32;

    private final GcsChannels channels;
    private final long deadlineMillis;

    public RayGcs(KubernetesClient kubernetes, ActuatorConfig config, ActuatorMetrics metrics) {
        this.channels = new GcsChannels(kubernetes, config.gcs(), metrics.gcsCalls());
        this.deadlineMillis = config.gcs().deadline().toMillis();
    }

    void close(@Observes @Priority(ShutdownOrder.CHANNELS) ShutdownEvent event) {
        channels.close();
    }

    /**
     * Drains the nodes of each turn ({@link ActuationPlan#drainTurns}) one after another, asking none after the first
     * refusal; returns, for every pod whose drain was not accepted, why (a refusal by Ray, the GCS could not be asked, or
     * an earlier host of its turn was refused: then nothing is deleted). Turns are asked side by side, up to
     * {@link #DRAINS_IN_FLIGHT} at once: a scale-down of hundreds of nodes takes a few round trips, and a GCS that does not
     * answer costs one deadline per host of a replica, not one per node.
     */
    Map<String, String> drain(RayCluster cluster, List<List<PodDeletion>> turns, String decisionId) {
        String clusterId = GcsChannels.id(cluster);
        List<Map<String, String>> answers = Multi.createFrom().iterable(turns)
                .onItem().transformToUni(turn -> inTurn(clusterId, cluster, turn, decisionId))
                .merge(DRAINS_IN_FLIGHT)
                .collect().asList().await().indefinitely();
        Map<String, String> refusals = new LinkedHashMap<>();
        answers.forEach(refusals::putAll);
        return refusals;
    }

    /** The refusals of one turn: its hosts asked in order, the rest not asked once one is refused. */
    private Uni<Map<String, String>> inTurn(String clusterId, RayCluster cluster, List<PodDeletion> turn, String decisionId) {
        Uni<Map<String, String>> refusals = Uni.createFrom().item(LinkedHashMap::new);
        for (PodDeletion deletion : turn) {
            refusals = refusals.chain(sofar -> {
                if (!sofar.isEmpty()) {
                    sofar.put(deletion.podName(), "not asked: " + sofar.keySet().iterator().next()
                            + ", a host of the same multi-host replica asked before it, was not drained");
                    return Uni.createFrom().item(sofar);
                }
                return drain(clusterId, cluster, deletion, decisionId).map(refusal -> {
                    if (!refusal.isEmpty()) {
                        sofar.put(deletion.podName(), refusal);
                    }
                    return sofar;
                });
            });
        }
        return refusals;
    }

    /** One drain: why it was not accepted, or empty if it was. Within the deadline, whatever happens. */
    private Uni<String> drain(String clusterId, RayCluster cluster, PodDeletion deletion, String decisionId) {
        return Uni.createFrom().deferred(() -> MutinyAutoscalerStateServiceGrpc.newMutinyStub(channels.channel(clusterId, cluster))
                        .withDeadlineAfter(deadlineMillis, TimeUnit.MILLISECONDS)
                        .drainNode(DrainNodeRequest.newBuilder()
                                .setNodeId(ByteString.copyFrom(HexFormat.of().parseHex(deletion.nodeId())))
                                .setReason(DrainNodeReason.DRAIN_NODE_REASON_IDLE_TERMINATION)
                                .setReasonMessage("Rayscale: " + deletion.cause() + " (decision " + decisionId + ")")
                                .build()))
                .map(reply -> reply.getIsAccepted() ? "" : reply.getRejectionReasonMessage().isBlank()
                        ? "Ray refused the drain" : "Ray refused the drain: " + reply.getRejectionReasonMessage())
                .onFailure().recoverWithItem(failure -> {
                    Status status = Status.fromThrowable(failure);
                    if (status.getCode() == Status.Code.UNAUTHENTICATED) {
                        channels.release(clusterId);
                    }
                    return "the GCS could not be asked to drain (" + status.getCode() + ": "
                            + (status.getDescription() != null ? status.getDescription() : failure.getMessage()) + "); not deleted";
                });
    }

    /**
     * The Ray nodes the GCS holds alive for each pod (hex ids) and how long each had been idle, from a fresh read; null if
     * the GCS could not be read. A raylet restarted in a pod registers anew (fact A4.20), and its predecessor may still
     * count as alive until its health checks fail (A4.19).
     */
    LiveNodes liveNodes(RayCluster cluster) {
        String clusterId = GcsChannels.id(cluster);
        try {
            ClusterResourceState state = state(clusterId, cluster);
            Map<String, List<String>> live = new HashMap<>();
            Map<String, Long> idleMs = new HashMap<>();
            for (NodeState node : state.getNodeStatesList()) {
                if (node.getStatus() != NodeStatus.DEAD && !node.getInstanceId().isEmpty()) {
                    String id = HexFormat.of().formatHex(node.getNodeId().toByteArray());
                    live.computeIfAbsent(node.getInstanceId(), pod -> new ArrayList<>()).add(id);
                    idleMs.put(id, node.getIdleDurationMs());
                }
            }
            return new LiveNodes(live, idleMs);
        } catch (RuntimeException unreadable) {
            LOG.warnf("%s: could not read the GCS to check Ray nodes before deleting pods: %s", clusterId, unreadable.getMessage());
            return null;
        }
    }

    private ClusterResourceState state(String clusterId, RayCluster cluster) {
        return AutoscalerStateServiceGrpc.newBlockingStub(channels.channel(clusterId, cluster))
                .withDeadlineAfter(deadlineMillis, TimeUnit.MILLISECONDS)
                .getClusterResourceState(GetClusterResourceStateRequest.getDefaultInstance()).getClusterResourceState();
    }

    /**
     * Records what the autoscaler is doing in the GCS, so that {@code ray status} shows it ({@link AutoscalingReport}).
     * Throws if the GCS cannot be reached.
     */
    void report(RayCluster cluster, ScaleDecision decision) {
        String clusterId = GcsChannels.id(cluster);
        AutoscalerStateServiceGrpc.newBlockingStub(channels.channel(clusterId, cluster))
                .withDeadlineAfter(deadlineMillis, TimeUnit.MILLISECONDS)
                .reportAutoscalingState(ReportAutoscalingStateRequest.newBuilder()
                        .setAutoscalingState(AutoscalingReport.of(decision, Instant.now())).build());
    }
}
