package dev.rayscale.sim;

import static dev.rayscale.sim.SimFixture.ONE_CPU;
import static dev.rayscale.sim.SimFixture.id;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.rayscale.events.PlacementStrategy;
import dev.rayscale.events.Resources;
import dev.rayscale.gcs.proto.AutoscalingState;
import dev.rayscale.gcs.proto.ClusterResourceState;
import dev.rayscale.gcs.proto.DrainNodeReason;
import dev.rayscale.gcs.proto.FailedInstanceRequest;
import dev.rayscale.gcs.proto.GangResourceRequest;
import dev.rayscale.gcs.proto.NodeState;
import dev.rayscale.gcs.proto.NodeStatus;
import dev.rayscale.gcs.proto.PendingInstanceRequest;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The simulated Ray against the facts of the shared ray-kuberay-behaviours.md, section A, one case per
 * fact, each named after it. Everything is observed as Rayscale observes it: over the GCS's gRPC
 * service and the Kubernetes API.
 */
class RayConformanceTest {

    static Stream<Named<Consumer<SimFixture>>> facts() {
        return Stream.of(
                fact("A1.1 a last_seen above the GCS's version makes the GCS exit; its head restarts it", f -> {
                    long version = f.read().getClusterResourceStateVersion();
                    StatusRuntimeException refused = catchThrowableOfType(StatusRuntimeException.class, () -> f.read(version + 5));
                    assertThat(refused.getStatus().getCode()).isEqualTo(Status.Code.UNAVAILABLE);
                    assertThat(f.sim.gcsUp()).isFalse();
                    assertThat(f.sim.invariants().gcsCrashes()).isEqualTo(1);
                    f.advance(15);
                    assertThat(f.sim.gcsUp()).as("the head's container restarted the GCS").isTrue();
                }),
                fact("A1.2 every read bumps the version and stamps it on every node", f -> {
                    ClusterResourceState first = f.read();
                    ClusterResourceState second = f.read();
                    assertThat(second.getClusterResourceStateVersion()).isEqualTo(first.getClusterResourceStateVersion() + 1);
                    assertThat(second.getNodeStatesList()).isNotEmpty()
                            .allSatisfy(node -> assertThat(node.getNodeStateVersion()).isEqualTo(second.getClusterResourceStateVersion()));
                }),
                fact("A1.3 a restarted GCS counts from 0 with a new session and nothing remembered", f -> {
                    f.sim.ray().requestResources(0, List.of(Resources.of("CPU", "4"), Resources.of("CPU", "4")), ClientPath.V2);
                    f.report(AutoscalingState.newBuilder().setAutoscalerStateVersion(7).build());
                    for (int i = 0; i < 5; i++) {
                        f.read();
                    }
                    ClusterResourceState before = f.read();
                    assertThat(before.getClusterResourceConstraintsList()).hasSize(1);
                    f.sim.ray().crashGcs();
                    f.advance(15);
                    ClusterResourceState after = f.read();
                    assertThat(after.getClusterResourceStateVersion()).as("from 0; the head's monitor reads too")
                            .isLessThanOrEqualTo(2).isLessThan(before.getClusterResourceStateVersion());
                    assertThat(after.getClusterSessionName()).isNotEqualTo(before.getClusterSessionName());
                    assertThat(after.getClusterResourceConstraintsList()).as("request_resources is lost (A5.23)").isEmpty();
                    assertThat(f.sim.rayStatus(ClientPath.V2)).doesNotContain("launching");
                }),
                fact("A2.5 a report older than the one held is dropped, the call still answered", f -> {
                    f.report(AutoscalingState.newBuilder().setAutoscalerStateVersion(10)
                            .addPendingInstanceRequests(PendingInstanceRequest.newBuilder().setRayNodeTypeName("cpu").setCount(3)).build());
                    f.report(AutoscalingState.newBuilder().setAutoscalerStateVersion(5).build());
                    assertThat(f.sim.rayStatus(ClientPath.V2)).contains("cpu, 1 launching");
                    f.report(AutoscalingState.newBuilder().setAutoscalerStateVersion(10).build());
                    assertThat(f.sim.rayStatus(ClientPath.V2)).as("an equal version overwrites").doesNotContain("launching");
                }),
                fact("A2.9 ray status: idle, active, launching entries, LaunchFailed, NodeTerminated, demands", f -> {
                    List<String> pods = f.running("cpu", 2);
                    f.submit(ONE_CPU, 3, 100);
                    f.advance(1);
                    f.sim.kubelet().delete(pods.get(0));
                    f.advance(1);
                    f.report(AutoscalingState.newBuilder().setAutoscalerStateVersion(1)
                            .addPendingInstanceRequests(PendingInstanceRequest.newBuilder().setRayNodeTypeName("cpu").setCount(4))
                            .addFailedInstanceRequests(FailedInstanceRequest.newBuilder().setRayNodeTypeName("tpu").setCount(1)
                                    .setReason("exceeded quota").setFailedTs(0)).build());
                    String status = f.sim.rayStatus(ClientPath.V2);
                    assertThat(status).contains("Active:\n 1 cpu\n", "Idle:\n 1 headgroup\n", " cpu, 1 launching\n",
                            " tpu: LaunchFailed (latest_attempt: 00:00:00)\n", " cpu: NodeTerminated (instance_id: " + pods.get(0) + ")\n",
                            "Pending Demands:\n {'CPU': 1.0}: 2+ pending tasks/actors");
                }),
                fact("A3.10 a negative drain deadline is an error, not a refusal", f -> {
                    String node = id(f.aliveNodeOf(f.running("cpu", 1).get(0)));
                    StatusRuntimeException error = catchThrowableOfType(StatusRuntimeException.class,
                            () -> f.drain(node, DrainNodeReason.DRAIN_NODE_REASON_IDLE_TERMINATION, -1));
                    assertThat(error.getStatus().getCode()).isEqualTo(Status.Code.INVALID_ARGUMENT);
                }),
                fact("A3.11 a drain of an unknown or dead node is accepted", f -> {
                    assertThat(f.drain("ab".repeat(28), DrainNodeReason.DRAIN_NODE_REASON_IDLE_TERMINATION, 0).getIsAccepted()).isTrue();
                    String pod = f.running("cpu", 1).get(0);
                    String node = id(f.aliveNodeOf(pod));
                    f.sim.kubelet().delete(pod);
                    f.advance(1);
                    assertThat(f.drain(node, DrainNodeReason.DRAIN_NODE_REASON_IDLE_TERMINATION, 0).getIsAccepted()).isTrue();
                }),
                fact("A3.13 IDLE_TERMINATION is refused by a busy node, PREEMPTION never", f -> {
                    String node = id(f.aliveNodeOf(f.running("cpu", 1).get(0)));
                    f.submit(ONE_CPU, 1, 100);
                    f.advance(1);
                    var refused = f.drain(node, DrainNodeReason.DRAIN_NODE_REASON_IDLE_TERMINATION, 0);
                    assertThat(refused.getIsAccepted()).isFalse();
                    assertThat(refused.getRejectionReasonMessage()).isEqualTo("The node to be idle terminated is no longer idle.");
                    assertThat(f.drain(node, DrainNodeReason.DRAIN_NODE_REASON_PREEMPTION, 0).getIsAccepted()).isTrue();
                }),
                fact("A3.14 an idle node that accepts an idle drain exits at once: DEAD, never DRAINING", f -> {
                    String pod = f.running("cpu", 1).get(0);
                    String node = id(f.aliveNodeOf(pod));
                    assertThat(f.drain(node, DrainNodeReason.DRAIN_NODE_REASON_IDLE_TERMINATION, 0).getIsAccepted()).isTrue();
                    assertThat(f.nodesOf(pod)).singleElement().satisfies(n -> assertThat(n.getStatus()).isEqualTo(NodeStatus.DEAD));
                }),
                fact("A3.16 DRAINING is what a busy draining raylet reports at the next load poll; it exits once idle", f -> {
                    String pod = f.running("cpu", 1).get(0);
                    String node = id(f.aliveNodeOf(pod));
                    f.submit(ONE_CPU, 1, 10);
                    f.advance(1);
                    f.drain(node, DrainNodeReason.DRAIN_NODE_REASON_PREEMPTION, 0);
                    assertThat(f.aliveNodeOf(pod).getStatus()).as("not yet polled").isEqualTo(NodeStatus.RUNNING);
                    f.advance(1.25);
                    assertThat(f.aliveNodeOf(pod).getStatus()).isEqualTo(NodeStatus.DRAINING);
                    f.advance(10);
                    assertThat(f.nodesOf(pod).stream().filter(n -> id(n).equals(node)))
                            .singleElement().satisfies(n -> assertThat(n.getStatus()).isEqualTo(NodeStatus.DEAD));
                }),
                fact("A3.16 a node's status, usage and the tasks queued are what the last load pull got, taken together", f -> {
                    // gcs_autoscaler_state_manager.cc: UpdateResourceLoadAndUsage replaces the node's ResourcesData with the
                    // pulled one; GetNodeStates reads status, idle time and available resources from it, "more consistent
                    // between usage and load" than the node table the raylet's usage messages keep.
                    String pod = f.running("cpu", 1).get(0);
                    f.submit(Map.of("CPU", 64.0), 1, 10);
                    while (f.read().getPendingResourceRequestsCount() == 0) {
                        f.advance(0.25);
                    }
                    f.submit(ONE_CPU, 1, 10);
                    f.advance(0.25);
                    assertThat(f.sim.ray().busy(pod)).as("the task runs").isTrue();
                    NodeState asPulled = f.aliveNodeOf(pod);
                    assertThat(asPulled.getStatus()).as("until the next pull").isEqualTo(NodeStatus.IDLE);
                    assertThat(asPulled.getAvailableResourcesMap()).containsEntry("CPU", 1.0);
                    assertThat(f.read().getPendingResourceRequestsList()).as("never queued at a pull")
                            .extracting(r -> r.getRequest().getResourcesBundleMap()).containsExactly(Map.of("CPU", 64.0));
                    f.advance(1);
                    NodeState pulled = f.aliveNodeOf(pod);
                    assertThat(pulled.getStatus()).isEqualTo(NodeStatus.RUNNING);
                    assertThat(pulled.getAvailableResourcesMap().getOrDefault("CPU", 0.0)).isZero();
                }),
                fact("A3.16 the pull runs on the GCS's own timer, also when the raylets' side falls behind", f -> {
                    f.submit(Map.of("CPU", 64.0), 1, 10);
                    f.clock.set(f.clock.seconds() + 1.5);
                    assertThat(f.read().getPendingResourceRequestsList()).as("no pull yet").isEmpty();
                    f.sim.pullLoadsIfDue();
                    assertThat(f.read().getPendingResourceRequestsList()).as("pulled without a tick").hasSize(1);
                }),
                fact("A4.17 idle time grows from the moment nothing ran, at least 1 ms; 0 while busy", f -> {
                    String pod = f.running("cpu", 1).get(0);
                    long before = f.aliveNodeOf(pod).getIdleDurationMs();
                    f.advance(3);
                    assertThat(f.aliveNodeOf(pod).getIdleDurationMs()).isGreaterThanOrEqualTo(before + 3000).isPositive();
                    f.submit(ONE_CPU, 1, 4);
                    f.advance(1);
                    assertThat(f.aliveNodeOf(pod).getIdleDurationMs()).isZero();
                    f.advance(4);
                    assertThat(f.aliveNodeOf(pod).getIdleDurationMs()).isBetween(1L, 1500L);
                }),
                fact("A4.18 activity in Ray's words; a DEAD node has its identity and status only", f -> {
                    List<String> pods = f.running("cpu", 2);
                    f.submit(ONE_CPU, 1, 100);
                    f.advance(1);
                    String busy = f.sim.ray().busy(pods.get(0)) ? pods.get(0) : pods.get(1);
                    String idle = busy.equals(pods.get(0)) ? pods.get(1) : pods.get(0);
                    assertThat(f.aliveNodeOf(busy).getNodeActivityList()).containsExactly("Resource: CPU currently in use.", "Busy workers on node.");
                    assertThat(f.aliveNodeOf(idle).getNodeActivityList()).isEmpty();
                    f.sim.kubelet().delete(idle);
                    f.advance(1);
                    NodeState dead = f.nodesOf(idle).get(0);
                    assertThat(dead.getStatus()).isEqualTo(NodeStatus.DEAD);
                    assertThat(dead.getTotalResourcesMap()).isEmpty();
                    assertThat(dead.getNodeActivityList()).isEmpty();
                }),
                fact("A4.19 a pod deleted gracefully leaves a DEAD node at once; one that vanished stays alive until the health checks fail", f -> {
                    List<String> pods = f.running("cpu", 2);
                    f.sim.kubelet().delete(pods.get(0));
                    f.sim.kubelet().forceDelete(pods.get(1));
                    assertThat(f.nodesOf(pods.get(0))).singleElement().satisfies(n -> assertThat(n.getStatus()).isEqualTo(NodeStatus.DEAD));
                    assertThat(f.nodesOf(pods.get(1))).singleElement().satisfies(n -> assertThat(n.getStatus()).isEqualTo(NodeStatus.IDLE));
                    f.advance(60);
                    assertThat(f.nodesOf(pods.get(1))).singleElement().satisfies(n -> assertThat(n.getStatus()).isEqualTo(NodeStatus.IDLE));
                    f.advance(6);
                    assertThat(f.nodesOf(pods.get(1))).singleElement().satisfies(n -> assertThat(n.getStatus()).isEqualTo(NodeStatus.DEAD));
                }),
                fact("A4.20 a raylet restarted in the same pod registers as a new node; the old one goes DEAD", f -> {
                    String pod = f.running("cpu", 1).get(0);
                    String first = id(f.aliveNodeOf(pod));
                    f.sim.ray().crashRaylet(pod);
                    f.advance(70);
                    List<NodeState> nodes = f.nodesOf(pod);
                    assertThat(nodes).hasSize(2);
                    assertThat(nodes).filteredOn(n -> id(n).equals(first)).singleElement()
                            .satisfies(n -> assertThat(n.getStatus()).isEqualTo(NodeStatus.DEAD));
                    assertThat(nodes).filteredOn(n -> !id(n).equals(first)).singleElement()
                            .satisfies(n -> assertThat(n.getStatus()).isEqualTo(NodeStatus.IDLE));
                    assertThat(f.podNames("cpu")).containsExactly(pod);
                }),
                fact("A5.21 pending demand is summed by shape, work no node can hold included, once the GCS pulled it (A3.16)", f -> {
                    f.submit(ONE_CPU, 2, 10);
                    f.submit(ONE_CPU, 3, 20);
                    f.submit(Map.of("CPU", 64.0), 1, 10);
                    assertThat(f.read().getPendingResourceRequestsList()).as("queued at a raylet, not yet pulled").isEmpty();
                    f.advance(1);
                    assertThat(f.read().getPendingResourceRequestsList())
                            .extracting(r -> r.getRequest().getResourcesBundleMap() + "x" + r.getCount())
                            .containsExactlyInAnyOrder("{CPU=1.0}x5", "{CPU=64.0}x1");
                }),
                fact("A5.22 a pending placement group: unplaced bundles, _PG_ constraints, details; placed bundles label their nodes", f -> {
                    f.sim.ray().submitGang("pg1", PlacementStrategy.STRICT_SPREAD,
                            List.of(Resources.of("CPU", "1"), Resources.of("CPU", "1")), 100);
                    GangResourceRequest gang = f.read().getPendingGangResourceRequests(0);
                    String hex = HexFormat.of().formatHex("pg1".getBytes(StandardCharsets.UTF_8));
                    assertThat(gang.getDetails()).isEqualTo(hex + ":STRICT_SPREAD|PENDING");
                    assertThat(gang.getRequestsList()).hasSize(2).allSatisfy(request ->
                            assertThat(request.getPlacementConstraints(0).getAntiAffinity().getLabelName()).isEqualTo("_PG_" + hex));
                    List<String> pods = f.running("cpu", 2);
                    f.advance(1);
                    assertThat(f.read().getPendingGangResourceRequestsList()).isEmpty();
                    assertThat(pods).allSatisfy(pod -> assertThat(f.aliveNodeOf(pod).getDynamicLabelsMap()).containsEntry("_PG_" + hex, ""));
                }),
                fact("A5.23 request_resources: one stored constraint, replaced by the next call", f -> {
                    f.sim.ray().requestResources(0, List.of(Resources.of("CPU", "4"), Resources.of("CPU", "4")), ClientPath.V2);
                    f.sim.ray().requestResources(3, List.of(), ClientPath.V2);
                    assertThat(f.read().getClusterResourceConstraintsList()).singleElement()
                            .satisfies(c -> assertThat(c.getResourceRequests(0).getCount()).isEqualTo(3));
                }));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("facts")
    void behavesAsRayDoes(Consumer<SimFixture> fact) {
        try (SimFixture fixture = SimFixture.start()) {
            fact.accept(fixture);
        }
    }

    private static Named<Consumer<SimFixture>> fact(String name, Consumer<SimFixture> check) {
        return Named.of(name, check);
    }
}
