package dev.rayscale.collector.assembly;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rayscale.events.GangDemand;
import dev.rayscale.events.LabelConstraint;
import dev.rayscale.events.LabelOperator;
import dev.rayscale.events.NodeStatus;
import dev.rayscale.events.PlacementStrategy;
import dev.rayscale.events.RayNode;
import dev.rayscale.events.Resources;
import dev.rayscale.events.ShapeCount;
import dev.rayscale.events.TaskDemand;
import dev.rayscale.gcs.proto.BundleSelector;
import dev.rayscale.gcs.proto.ClusterResourceState;
import dev.rayscale.gcs.proto.GangResourceRequest;
import dev.rayscale.gcs.proto.LabelSelector;
import dev.rayscale.gcs.proto.LabelSelectorConstraint;
import dev.rayscale.gcs.proto.LabelSelectorOperator;
import dev.rayscale.gcs.proto.ResourceRequest;
import dev.rayscale.gcs.proto.ResourceRequestByCount;
import dev.rayscale.sim.GcsStates;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RayStateTest {

    @Test
    void recoversEveryPlacementStrategyFromTheWireEncoding() {
        RayState state = RayState.of(GcsStates.state(3)
                .gang("aa01", "STRICT_PACK", Map.of("CPU", 2.0), 3)
                .gang("bb02", "STRICT_SPREAD", Map.of("GPU", 1.0), 2)
                .gang("cc03", "PACK", Map.of("CPU", 1.0), 2)
                .gang("dd04", "SPREAD", Map.of("CPU", 1.0), 4)
                .build(), pod -> null);

        assertThat(state.demand().gangs()).extracting(GangDemand::id, GangDemand::strategy).containsExactly(
                org.assertj.core.groups.Tuple.tuple("aa01", PlacementStrategy.STRICT_PACK),
                org.assertj.core.groups.Tuple.tuple("bb02", PlacementStrategy.STRICT_SPREAD),
                org.assertj.core.groups.Tuple.tuple("cc03", PlacementStrategy.PACK),
                org.assertj.core.groups.Tuple.tuple("dd04", PlacementStrategy.SPREAD));
        assertThat(state.demand().gangs().get(0).bundles()).containsExactly(
                Resources.of("CPU", "2"), Resources.of("CPU", "2"), Resources.of("CPU", "2"));
    }

    /**
     * Fact D52: a placement group's label selectors come in its bundle selector only (GetPendingGangResourceRequests); the
     * deprecated requests are read only when there is no bundle selector; a GCS of about Ray 2.48 sent one bundle selector
     * per bundle (fixed by ray-project/ray PR 55106), read as one group's bundles, not as fallbacks.
     */
    @Test
    void readsEachBundlesLabelSelectorsFromTheBundleSelector() {
        GangResourceRequest current = GcsStates.state(1).gang("aa01", "PACK", List.of(Map.of("CPU", 1.0), Map.of("CPU", 2.0)),
                List.of(Map.of("ray.io/node-group", "gpu"), Map.of())).build().getPendingGangResourceRequests(0);
        GangResourceRequest onePerBundle = current.toBuilder().clearBundleSelectors()
                .addBundleSelectors(BundleSelector.newBuilder().addResourceRequests(current.getBundleSelectors(0).getResourceRequests(0)))
                .addBundleSelectors(BundleSelector.newBuilder().addResourceRequests(current.getBundleSelectors(0).getResourceRequests(1))).build();
        GangResourceRequest deprecatedOnly = current.toBuilder().clearBundleSelectors().build();
        List<dev.rayscale.events.LabelSelector> gpu = List.of(new dev.rayscale.events.LabelSelector(
                List.of(new LabelConstraint("ray.io/node-group", LabelOperator.IN, List.of("gpu")))));

        for (GangResourceRequest read : List.of(current, onePerBundle)) {
            GangDemand gang = RayState.of(ClusterResourceState.newBuilder().addPendingGangResourceRequests(read).build(), pod -> null)
                    .demand().gangs().get(0);
            assertThat(gang.bundles()).containsExactly(Resources.of("CPU", "1"), Resources.of("CPU", "2"));
            assertThat(gang.bundleLabelSelectors()).containsExactly(gpu, List.of());
        }
        GangDemand deprecated = RayState.of(ClusterResourceState.newBuilder().addPendingGangResourceRequests(deprecatedOnly).build(), pod -> null)
                .demand().gangs().get(0);
        assertThat(deprecated.bundles()).hasSize(2);
        assertThat(deprecated.bundleLabelSelectors()).as("the deprecated requests carry none").isEmpty();
    }

    @Test
    void keepsDemandGroupedByShape() {
        RayState state = RayState.of(GcsStates.state(1)
                .tasks(Map.of("CPU", 1.0), 60_000)
                .tasks(Map.of("CPU", 1.0), 40_000)
                .tasks(Map.of("CPU", 0.5, "accel_x", 1.0), 3)
                .constraint(Map.of("CPU", 4.0), 10)
                .build(), pod -> null);

        assertThat(state.demand().tasks()).containsExactly(
                new TaskDemand(Resources.of("CPU", "1"), 100_000),
                new TaskDemand(Resources.of("CPU", "0.5", "accel_x", "1"), 3));
        assertThat(state.demand().constraints()).singleElement()
                .satisfies(c -> assertThat(c.bundles()).containsExactly(new ShapeCount(Resources.of("CPU", "4"), 10)));
    }

    @Test
    void readsNodesWithTheirPodReplicaAndExactAmounts() {
        RayState state = RayState.of(GcsStates.state(9)
                .node("n1", "pod-1", "tpu", dev.rayscale.gcs.proto.NodeStatus.IDLE, Map.of("TPU", 4.0, "CPU", 0.1 + 0.2),
                        Map.of("TPU", 4.0, "CPU", 0.3), 90_000)
                .node("n2", "pod-2", "tpu", dev.rayscale.gcs.proto.NodeStatus.UNSPECIFIED, Map.of("TPU", 4.0), Map.of(), 0)
                .build(), pod -> pod.equals("pod-1") ? "slice-0" : null);

        RayNode idle = state.nodes().get(0);
        assertThat(idle.status()).isEqualTo(NodeStatus.IDLE);
        assertThat(idle.replicaName()).isEqualTo("slice-0");
        assertThat(idle.total()).isEqualTo(Resources.of("TPU", "4", "CPU", "0.3"));
        assertThat(idle.idleDurationMs()).isEqualTo(90_000);
        assertThat(state.nodes().get(1).status()).as("unknown status is never read as idle").isEqualTo(NodeStatus.RUNNING);
        assertThat(state.stateVersion()).isEqualTo(9);
    }

    /** Facts C43 and A5.21: label selectors on the wire (field 3); demand of one shape with other selectors stays apart. */
    @Test
    void readsLabelSelectorsAndKeepsDemandApartByThem() throws Exception {
        var gpuOnly = LabelSelector.newBuilder().addLabelConstraints(LabelSelectorConstraint
                .newBuilder().setLabelKey("accelerator").setOperator(LabelSelectorOperator.LABEL_OPERATOR_IN)
                .addLabelValues("A10G").addLabelValues("L4"));
        var notSpot = LabelSelector.newBuilder().addLabelConstraints(LabelSelectorConstraint
                .newBuilder().setLabelKey("market").setOperator(LabelSelectorOperator.LABEL_OPERATOR_NOT_IN)
                .addLabelValues("spot"));
        var wire = GcsStates.state(1).tasks(Map.of("CPU", 1.0), 2).build().toBuilder()
                .addPendingResourceRequests(ResourceRequestByCount.newBuilder().setCount(5)
                        .setRequest(ResourceRequest.newBuilder().putResourcesBundle("CPU", 1.0)
                                .addLabelSelectors(gpuOnly).addLabelSelectors(notSpot)))
                .build();

        RayState state = RayState.of(ClusterResourceState.parseFrom(wire.toByteArray()), pod -> null);

        assertThat(state.demand().tasks()).containsExactly(
                new TaskDemand(Resources.of("CPU", "1"), 2),
                new TaskDemand(Resources.of("CPU", "1"), 5, List.of(
                        new dev.rayscale.events.LabelSelector(List.of(new LabelConstraint("accelerator",
                                LabelOperator.IN, List.of("A10G", "L4")))),
                        new dev.rayscale.events.LabelSelector(List.of(new LabelConstraint("market",
                                LabelOperator.NOT_IN, List.of("spot")))))));
    }
}
