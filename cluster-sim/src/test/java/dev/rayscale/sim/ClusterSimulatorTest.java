package dev.rayscale.sim;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rayscale.gcs.proto.ClusterResourceState;
import dev.rayscale.gcs.proto.NodeStatus;
import io.fabric8.kubernetes.api.model.Pod;
import io.ray.v1.RayCluster;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The simulated cluster on its own: KubeRay's pod rules, the node pool, Ray's scheduling and drains. */
class ClusterSimulatorTest {

    @Test
    void podsWaitForTheNodePoolAndTheNodeAutoscalerAddsNodes() {
        ManualClock clock = new ManualClock();
        try (ClusterSimulator sim = ClusterSimulator.manual(Workload.shipped("walkthrough"), "sim-test", clock)) {
            sim.advance(clock, 5, 0.5);
            sim.begin();
            setReplicas(sim, 5);
            sim.advance(clock, 10, 0.5);

            // 3 nodes are free: 3 pods start, 2 wait Unschedulable until the node autoscaler adds nodes (60 s).
            assertThat(unschedulable(sim)).hasSize(2);
            assertThat(sim.rayStats().registeredWorkers()).isEqualTo(3);
            sim.advance(clock, 60, 0.5);
            assertThat(sim.rayStats().registeredWorkers()).isEqualTo(5);

            // The 15 tasks arrived at t=5 s; 5 run, 10 are the pending demand the GCS reports.
            assertThat(sim.rayStats().runningTasks()).isEqualTo(5);
            ClusterResourceState state = gcsState(sim);
            assertThat(state.getPendingResourceRequestsList()).singleElement()
                    .satisfies(request -> assertThat(request.getCount()).isEqualTo(10));
            assertThat(state.getNodeStatesList()).filteredOn(node -> node.getRayNodeTypeName().equals("small-group"))
                    .hasSize(5).allSatisfy(node -> assertThat(node.getStatus()).isEqualTo(NodeStatus.RUNNING));
        }
    }

    @Test
    void answersAFailedCompareAndSetWith422LikeARealApiServer() {
        try (ClusterSimulator sim = ClusterSimulator.start(Workload.shipped("walkthrough"), "cas-test", 20)) {
            String patch = "[{\"op\":\"test\",\"path\":\"/spec/workerGroupSpecs/0/replicas\",\"value\":7},"
                    + "{\"op\":\"replace\",\"path\":\"/spec/workerGroupSpecs/0/replicas\",\"value\":9}]";

            var refused = org.assertj.core.api.Assertions.catchThrowableOfType(io.fabric8.kubernetes.client.KubernetesClientException.class,
                    () -> sim.client().resources(RayCluster.class).inNamespace("default").withName("cas-test")
                            .patch(io.fabric8.kubernetes.client.dsl.base.PatchContext.of(io.fabric8.kubernetes.client.dsl.base.PatchType.JSON), patch));

            assertThat(refused.getCode()).isEqualTo(422);
            assertThat(sim.client().resources(RayCluster.class).inNamespace("default").withName("cas-test").get()
                    .getSpec().getWorkerGroupSpecs().get(0).getReplicas()).isZero();
        }
    }

    private static void setReplicas(ClusterSimulator sim, int replicas) {
        sim.client().resources(RayCluster.class).inNamespace("default").withName("sim-test").edit(cluster -> {
            cluster.getSpec().getWorkerGroupSpecs().get(0).setReplicas(replicas);
            return cluster;
        });
    }

    private static List<Pod> unschedulable(ClusterSimulator sim) {
        return sim.client().pods().inNamespace("default").withLabel("ray.io/node-type", "worker").list().getItems().stream()
                .filter(pod -> pod.getStatus().getConditions() != null && pod.getStatus().getConditions().stream()
                        .anyMatch(c -> "Unschedulable".equals(c.getReason()))).toList();
    }

    private static ClusterResourceState gcsState(ClusterSimulator sim) {
        var channel = io.grpc.ManagedChannelBuilder.forTarget(sim.gcsAddress()).usePlaintext().build();
        try {
            return dev.rayscale.gcs.proto.AutoscalerStateServiceGrpc.newBlockingStub(channel)
                    .getClusterResourceState(dev.rayscale.gcs.proto.GetClusterResourceStateRequest.getDefaultInstance())
                    .getClusterResourceState();
        } finally {
            channel.shutdownNow();
        }
    }
}
