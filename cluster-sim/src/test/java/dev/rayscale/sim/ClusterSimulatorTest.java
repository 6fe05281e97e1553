package dev.rayscale.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.rayscale.gcs.proto.AutoscalerStateServiceGrpc;
import dev.rayscale.gcs.proto.ClusterResourceState;
import dev.rayscale.gcs.proto.GetClusterResourceStateRequest;
import dev.rayscale.gcs.proto.NodeStatus;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.utils.Serialization;
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

            var refused = catchThrowableOfType(KubernetesClientException.class,
                    () -> sim.client().resources(RayCluster.class).inNamespace("default").withName("cas-test")
                            .patch(PatchContext.of(PatchType.JSON), patch));

            assertThat(refused.getCode()).isEqualTo(422);
            assertThat(sim.client().resources(RayCluster.class).inNamespace("default").withName("cas-test").get()
                    .getSpec().getWorkerGroupSpecs().get(0).getReplicas()).isZero();
        }
    }

    /**
     * What the actuator's writes without a read rely on, as a real API server does for a custom resource with the status
     * subresource (Kubernetes documentation, "Extend the Kubernetes API with CustomResourceDefinitions", Status subresource:
     * {@code metadata.generation} is incremented for all changes except to {@code .metadata} and {@code .status}): a
     * status write and an annotation leave the generation as it was, a spec change raises it, and a JSON Patch testing
     * the generation or the whole annotations is refused (422) once they changed.
     */
    @Test
    void countsSpecChangesInTheGenerationAndRefusesPatchesTestingAnOldOne() {
        try (ClusterSimulator sim = ClusterSimulator.start(Workload.shipped("walkthrough"), "generation-test", 20)) {
            var cluster = sim.client().resources(RayCluster.class).inNamespace("default").withName("generation-test");
            long generation = cluster.get().getMetadata().getGeneration();
            cluster.subresource("status").patch(PatchContext.of(PatchType.JSON),
                    "[{\"op\":\"add\",\"path\":\"/status\",\"value\":{\"state\":\"ready\"}}]");
            assertThat(cluster.get().getMetadata().getGeneration()).as("after a status write").isEqualTo(generation);
            Edits.retryingConflicts(cluster, c -> {
                c.getMetadata().getAnnotations().put("example.com/owner", "team-a");
                return c;
            });
            assertThat(cluster.get().getMetadata().getGeneration()).as("after an annotation").isEqualTo(generation);
            String annotations = Serialization.asJson(cluster.get().getMetadata().getAnnotations());
            String testing = "[{\"op\":\"test\",\"path\":\"/metadata/generation\",\"value\":" + generation + "},"
                    + "{\"op\":\"test\",\"path\":\"/metadata/annotations\",\"value\":" + annotations + "},"
                    + "{\"op\":\"replace\",\"path\":\"/spec/workerGroupSpecs/0/replicas\",\"value\":1}]";
            cluster.patch(PatchContext.of(PatchType.JSON), testing);
            assertThat(cluster.get().getMetadata().getGeneration()).as("after a spec change").isEqualTo(generation + 1);

            assertThat(catchThrowableOfType(KubernetesClientException.class, () -> cluster.patch(PatchContext.of(PatchType.JSON), testing))
                    .getCode()).as("an old generation").isEqualTo(422);
            String current = "[{\"op\":\"test\",\"path\":\"/metadata/generation\",\"value\":" + (generation + 1) + "},"
                    + "{\"op\":\"test\",\"path\":\"/metadata/annotations\",\"value\":" + annotations + "}]";
            Edits.retryingConflicts(cluster, c -> {
                c.getMetadata().getAnnotations().put("example.com/owner", "team-b");
                return c;
            });
            assertThat(catchThrowableOfType(KubernetesClientException.class, () -> cluster.patch(PatchContext.of(PatchType.JSON), current))
                    .getCode()).as("old annotations").isEqualTo(422);
        }
    }

    private static void setReplicas(ClusterSimulator sim, int replicas) {
        Edits.retryingConflicts(sim.client().resources(RayCluster.class).inNamespace("default").withName("sim-test"), cluster -> {
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
            return AutoscalerStateServiceGrpc.newBlockingStub(channel)
                    .getClusterResourceState(GetClusterResourceStateRequest.getDefaultInstance())
                    .getClusterResourceState();
        } finally {
            channel.shutdownNow();
        }
    }
}
