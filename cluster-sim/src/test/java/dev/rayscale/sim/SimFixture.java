package dev.rayscale.sim;

import com.google.protobuf.ByteString;
import dev.rayscale.gcs.RayKv;
import dev.rayscale.gcs.proto.AutoscalerStateServiceGrpc;
import dev.rayscale.gcs.proto.InternalKVGcsServiceGrpc;
import dev.rayscale.gcs.proto.InternalKVGetReply;
import dev.rayscale.gcs.proto.InternalKVGetRequest;
import dev.rayscale.gcs.proto.InternalKVPutRequest;
import dev.rayscale.gcs.proto.AutoscalingState;
import dev.rayscale.gcs.proto.ClusterResourceState;
import dev.rayscale.gcs.proto.DrainNodeReason;
import dev.rayscale.gcs.proto.DrainNodeReply;
import dev.rayscale.gcs.proto.DrainNodeRequest;
import dev.rayscale.gcs.proto.GetClusterResourceStateRequest;
import dev.rayscale.gcs.proto.NodeState;
import dev.rayscale.gcs.proto.NodeStatus;
import dev.rayscale.gcs.proto.ReportAutoscalingStateRequest;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import io.ray.v1.RayCluster;
import io.ray.v1.rayclusterspec.WorkerGroupSpecs;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * A simulated cluster on a manual clock, driven step by step, read and written only as Rayscale does:
 * through the Kubernetes API and the GCS's gRPC service.
 */
final class SimFixture implements AutoCloseable {

    static final String NAME = "conf";
    static final Map<String, Double> ONE_CPU = Map.of("CPU", 1.0);

    final ManualClock clock = new ManualClock();
    final ClusterSimulator sim;
    private final ManagedChannel channel;
    private final AutoscalerStateServiceGrpc.AutoscalerStateServiceBlockingStub gcs;
    private final InternalKVGcsServiceGrpc.InternalKVGcsServiceBlockingStub kv;

    private SimFixture(Workload workload) {
        sim = ClusterSimulator.manual(workload, NAME, clock);
        channel = ManagedChannelBuilder.forTarget(sim.gcsAddress()).usePlaintext().build();
        gcs = AutoscalerStateServiceGrpc.newBlockingStub(channel);
        kv = InternalKVGcsServiceGrpc.newBlockingStub(channel);
        advance(5);
        sim.begin();
    }

    /**
     * One group {@code cpu} of 1-CPU pods (min 0, max 10), one multi-host group {@code tpu} (2 hosts, max 4);
     * pods start 2 s after being scheduled, containers restart after 10 s, deleted pods terminate in 2 s.
     */
    static SimFixture start(String... extraClusterYaml) {
        String yaml = """
                name: conformance
                speed: 1
                cluster:
                  headCpus: 0
                  idleTimeoutSeconds: 60
                  groups:
                    - {name: cpu, resources: {CPU: 1, memory: 1073741824}, min: 0, max: 10}
                    - {name: tpu, resources: {CPU: 8, TPU: 4}, min: 0, max: 4, hosts: 2}
                %s
                podStartSeconds: 2
                containerRestartSeconds: 10
                terminationSeconds: 2
                maxSeconds: 100000
                events: []
                """.formatted(String.join("\n", extraClusterYaml));
        try {
            Path file = Files.createTempFile("workload", ".yaml");
            Files.writeString(file, yaml);
            return new SimFixture(Workload.read(file));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    void advance(double seconds) {
        sim.advance(clock, seconds, 0.25);
    }

    // ---- the GCS, over gRPC ----

    ClusterResourceState read() {
        return read(0);
    }

    ClusterResourceState read(long lastSeen) {
        return gcs.getClusterResourceState(GetClusterResourceStateRequest.newBuilder()
                .setLastSeenClusterResourceStateVersion(lastSeen).build()).getClusterResourceState();
    }

    DrainNodeReply drain(String nodeId, DrainNodeReason reason, long deadline) {
        return gcs.drainNode(DrainNodeRequest.newBuilder().setNodeId(ByteString.copyFrom(HexFormat.of().parseHex(nodeId)))
                .setReason(reason).setDeadlineTimestampMs(deadline).build());
    }

    /** A drain with the reason as a bare number, as a client built on another numbering sends it. */
    DrainNodeReply drainRaw(String nodeId, int reason) {
        return gcs.drainNode(DrainNodeRequest.newBuilder().setNodeId(ByteString.copyFrom(HexFormat.of().parseHex(nodeId)))
                .setReasonValue(reason).build());
    }

    void report(AutoscalingState state) {
        gcs.reportAutoscalingState(ReportAutoscalingStateRequest.newBuilder().setAutoscalingState(state).build());
    }

    /** A KV Get over gRPC: the reply, whose status says NotFound for a missing key. */
    InternalKVGetReply kvGet(RayKv.Key key) {
        return kv.internalKVGet(InternalKVGetRequest.newBuilder().setNamespace(key.namespaceBytes()).setKey(key.keyBytes()).build());
    }

    /** A KV Put over gRPC, overwriting: true if the key was new. */
    boolean kvPut(RayKv.Key key, String value) {
        return kv.internalKVPut(InternalKVPutRequest.newBuilder().setNamespace(key.namespaceBytes()).setKey(key.keyBytes())
                .setValue(ByteString.copyFromUtf8(value)).setOverwrite(true).build()).getAddedNum() == 1;
    }

    /** The alive Ray nodes of a pod, by a fresh read. */
    List<NodeState> nodesOf(String pod) {
        return read().getNodeStatesList().stream().filter(node -> node.getInstanceId().equals(pod)).toList();
    }

    NodeState aliveNodeOf(String pod) {
        return nodesOf(pod).stream().filter(node -> node.getStatus() != NodeStatus.DEAD).findFirst().orElseThrow();
    }

    static String id(NodeState node) {
        return HexFormat.of().formatHex(node.getNodeId().toByteArray());
    }

    // ---- work ----

    void submit(Map<String, Double> shape, long count, double seconds) {
        Map<String, BigDecimal> amounts = new TreeMap<>();
        shape.forEach((name, amount) -> amounts.put(name, BigDecimal.valueOf(amount)));
        sim.ray().submitTasks(Workload.resourcesOf(amounts), count, seconds);
    }

    // ---- Kubernetes ----

    RayCluster cluster() {
        return sim.client().resources(RayCluster.class).inNamespace("default").withName(NAME).get();
    }

    void editGroup(String group, Consumer<WorkerGroupSpecs> edit) {
        Edits.retryingConflicts(sim.client().resources(RayCluster.class).inNamespace("default").withName(NAME), cluster -> {
            cluster.getSpec().getWorkerGroupSpecs().stream().filter(spec -> spec.getGroupName().equals(group)).forEach(edit);
            return cluster;
        });
    }

    void replicas(String group, int replicas) {
        editGroup(group, spec -> spec.setReplicas(replicas));
    }

    void patchSpec(String mergePatch) {
        sim.client().resources(RayCluster.class).inNamespace("default").withName(NAME)
                .patch(PatchContext.of(PatchType.JSON_MERGE), mergePatch);
    }

    /** Worker pods of a group, terminating ones included, by name. */
    List<Pod> pods(String group) {
        return sim.client().pods().inNamespace("default").withLabel("ray.io/group", group).list().getItems().stream()
                .sorted(Comparator.comparing(pod -> pod.getMetadata().getName())).toList();
    }

    List<String> podNames(String group) {
        return pods(group).stream().map(pod -> pod.getMetadata().getName()).toList();
    }

    Pod head() {
        return sim.client().pods().inNamespace("default").withLabel("ray.io/node-type", "head").list().getItems().stream()
                .findFirst().orElse(null);
    }

    /** Starts {@code replicas} pods of {@code group} and lets their raylets register. */
    List<String> running(String group, int replicas) {
        replicas(group, replicas);
        advance(5);
        return podNames(group);
    }

    List<Event> events() {
        return sim.client().v1().events().inNamespace("default").list().getItems();
    }

    @Override
    public void close() {
        channel.shutdownNow();
        sim.close();
    }
}
