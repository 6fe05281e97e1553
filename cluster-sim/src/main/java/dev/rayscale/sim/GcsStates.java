package dev.rayscale.sim;

import com.google.protobuf.ByteString;
import dev.rayscale.gcs.proto.ClusterResourceConstraint;
import dev.rayscale.gcs.proto.ClusterResourceState;
import dev.rayscale.gcs.proto.NodeState;
import dev.rayscale.gcs.proto.NodeStatus;
import dev.rayscale.gcs.proto.ResourceRequest;
import dev.rayscale.gcs.proto.ResourceRequestByCount;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.List;
import java.util.Map;

/** Builds GCS states in the GCS's own encoding (placement groups as constraints on {@code _PG_<id>}). */
public final class GcsStates {

    private final ClusterResourceState.Builder state = ClusterResourceState.newBuilder().setClusterSessionName("session_test");

    public static GcsStates state(long version) {
        GcsStates states = new GcsStates();
        states.state.setClusterResourceStateVersion(version);
        return states;
    }

    public GcsStates node(String nodeId, String pod, String type, NodeStatus status, Map<String, Double> total,
            Map<String, Double> available, long idleMs) {
        state.addNodeStates(NodeState.newBuilder()
                .setNodeId(ByteString.copyFrom(nodeId, StandardCharsets.UTF_8))
                .setInstanceId(pod)
                .setRayNodeTypeName(type)
                .setStatus(status)
                .putAllTotalResources(total)
                .putAllAvailableResources(available)
                .setIdleDurationMs(idleMs)
                .setNodeIpAddress("10.0.0." + (state.getNodeStatesCount() + 1)));
        return this;
    }

    public GcsStates tasks(Map<String, Double> shape, long count) {
        state.addPendingResourceRequests(ResourceRequestByCount.newBuilder().setRequest(request(shape)).setCount(count));
        return this;
    }

    /** A placement group of {@code bundles} equal bundles, encoded as the GCS does for its strategy. */
    public GcsStates gang(String id, String strategy, Map<String, Double> bundle, int bundles) {
        return gang(id, strategy, Collections.nCopies(bundles, bundle));
    }

    /** A placement group, encoded as the GCS does for its strategy: only its unplaced bundles are sent (fact A5.22). */
    public GcsStates gang(String id, String strategy, List<Map<String, Double>> bundles) {
        state.addPendingGangResourceRequests(RaySim.gangRequest(id, strategy, bundles, List.of(), true));
        return this;
    }

    /** As {@link #gang(String, String, List)}, bundle i selecting the labels {@code selectors[i]} (fact D52: in its bundle selector). */
    public GcsStates gang(String id, String strategy, List<Map<String, Double>> bundles, List<Map<String, String>> selectors) {
        state.addPendingGangResourceRequests(RaySim.gangRequest(id, strategy, bundles, selectors, true));
        return this;
    }

    public GcsStates constraint(Map<String, Double> shape, long count) {
        state.addClusterResourceConstraints(ClusterResourceConstraint.newBuilder()
                .addResourceRequests(ResourceRequestByCount.newBuilder().setRequest(request(shape)).setCount(count)));
        return this;
    }

    public ClusterResourceState build() {
        return state.build();
    }

    private static ResourceRequest request(Map<String, Double> shape) {
        return ResourceRequest.newBuilder().putAllResourcesBundle(shape).build();
    }
}
