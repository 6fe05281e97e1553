package dev.rayscale.actuator;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.rayscale.events.DeletionCause;
import dev.rayscale.events.GroupTarget;
import dev.rayscale.events.PodDeletion;
import dev.rayscale.events.codec.EventJson;
import dev.rayscale.testsupport.RayClusters;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.ray.v1.RayCluster;
import io.ray.v1.rayclusterspec.WorkerGroupSpecs;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class GroupPlanTest {

    private static final String REPLICA = "ray.io/worker-group-replica-name";

    @Test
    void aMultiHostReplicaGoesWholeOrNotAtAll() {
        WorkerGroupSpecs spec = RayClusters.group("tpu", 2, 0, 4, Map.of(), Map.of("google.com/tpu", "4"));
        spec.setNumOfHosts(2);
        Map<String, Pod> pods = pods(Map.of("r0-h0", "r0", "r0-h1", "r0", "r1-h0", "r1", "r1-h1", "r1"));
        GroupTarget target = new GroupTarget("tpu", 0, 2, 0, List.of(),
                List.of(idle("r0-h0"), idle("r0-h1"), idle("r1-h0"), idle("r1-h1")), List.of());

        GroupPlan plan = GroupPlan.of(0, spec, target, pods, REPLICA);
        plan.settle(Map.of("r1-h1", "busy"));

        assertThat(plan.acceptedPods()).containsExactly("r0-h0", "r0-h1");
        assertThat(plan.replicasAfter()).as("one replica removed, the refused one kept").isEqualTo(1);
        assertThat(plan.rejected()).extracting(r -> r.podName()).containsExactlyInAnyOrder("r1-h1", "r1-h0");
    }

    @Test
    void clearsWorkersToDeleteOnceThePodsAreGoneAndWaitsWhileTheyAreNot() {
        WorkerGroupSpecs spec = RayClusters.group("cpu", 2, 0, 4, Map.of(), Map.of("cpu", "1"));
        spec.getScaleStrategy().setWorkersToDelete(List.of("gone"));
        GroupTarget target = new GroupTarget("cpu", 0, 2, 1, List.of("gone"), List.of(idle("a")), List.of());

        GroupPlan finished = GroupPlan.of(0, spec, target, pods(Map.of("a", "a")), REPLICA);
        finished.settle(Map.of());
        assertThat(finished.workersToDeleteAfter()).containsExactly("a");
        assertThat(finished.replicasAfter()).isEqualTo(1);

        GroupPlan waiting = GroupPlan.of(0, spec, target, pods(Map.of("a", "a", "gone", "gone")), REPLICA);
        waiting.settle(Map.of());
        assertThat(waiting.workersToDeleteAfter()).containsExactly("gone");
        assertThat(waiting.replicasAfter()).as("nothing named, nothing removed").isEqualTo(2);
        assertThat(waiting.rejected()).singleElement().satisfies(r -> assertThat(r.reason()).contains("still deleting"));
    }

    @Test
    void aReplacedPodKeepsItsReplica() {
        WorkerGroupSpecs spec = RayClusters.group("cpu", 3, 0, 4, Map.of(), Map.of("cpu", "1"));
        Map<String, Pod> pods = pods(Map.of("stuck", "stuck"));
        pods.get("stuck").setStatus(new io.fabric8.kubernetes.api.model.PodStatusBuilder().withPhase("Pending").build());
        GroupTarget target = new GroupTarget("cpu", 0, 3, 3, List.of(),
                List.of(new PodDeletion("stuck", null, DeletionCause.STUCK_PENDING, null)), List.of());

        GroupPlan plan = GroupPlan.of(0, spec, target, pods, REPLICA);
        plan.settle(Map.of());

        assertThat(plan.acceptedPods()).containsExactly("stuck");
        assertThat(plan.replicasAfter()).isEqualTo(3);
    }

    @Test
    void thePatchTestsExactlyWhatTheDecisionReliedOn() throws Exception {
        RayCluster cluster = RayClusters.walkthrough("default", "c");
        WorkerGroupSpecs spec = cluster.getSpec().getWorkerGroupSpecs().get(0);
        spec.setReplicas(3);
        spec.getScaleStrategy().setWorkersToDelete(List.of());
        GroupTarget target = new GroupTarget("small-group", 0, 3, 5, List.of(), List.of(), List.of());
        GroupPlan plan = GroupPlan.of(0, spec, target, Map.of(), REPLICA);
        plan.settle(Map.of());

        JsonNode patch = EventJson.mapper().readTree(Patches.build(cluster, List.of(plan), new AppliedMark(9, "d-9")));

        assertThat(patch.toString()).isEqualTo("["
                + "{\"op\":\"test\",\"path\":\"/spec/workerGroupSpecs/0/groupName\",\"value\":\"small-group\"},"
                + "{\"op\":\"test\",\"path\":\"/spec/workerGroupSpecs/0/replicas\",\"value\":3},"
                + "{\"op\":\"test\",\"path\":\"/spec/workerGroupSpecs/0/scaleStrategy/workersToDelete\",\"value\":[]},"
                + "{\"op\":\"replace\",\"path\":\"/spec/workerGroupSpecs/0/replicas\",\"value\":5},"
                + "{\"op\":\"add\",\"path\":\"/spec/workerGroupSpecs/0/scaleStrategy\",\"value\":{\"workersToDelete\":[]}},"
                + "{\"op\":\"add\",\"path\":\"/metadata/annotations/rayscale.dev~1last-applied-sequence\",\"value\":\"9\"},"
                + "{\"op\":\"add\",\"path\":\"/metadata/annotations/rayscale.dev~1last-applied-decision\",\"value\":\"d-9\"}]");
    }

    private static PodDeletion idle(String pod) {
        return new PodDeletion(pod, "00", DeletionCause.IDLE, 100_000L);
    }

    private static Map<String, Pod> pods(Map<String, String> replicaOfPod) {
        Map<String, Pod> pods = new LinkedHashMap<>();
        replicaOfPod.forEach((pod, replica) -> pods.put(pod, new PodBuilder().withNewMetadata().withName(pod)
                .addToLabels(REPLICA, replica).endMetadata().withNewStatus().withPhase("Running").endStatus().build()));
        return pods;
    }
}
