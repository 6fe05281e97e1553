package dev.rayscale.collector.assembly;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rayscale.events.ClusterSnapshot;
import dev.rayscale.events.KubernetesSource;
import dev.rayscale.events.PendingPod;
import dev.rayscale.gcs.proto.NodeStatus;
import dev.rayscale.sim.GcsStates;
import dev.rayscale.testsupport.RayClusters;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.ray.v1.RayCluster;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The collector caches pods reduced to {@link PodFields}: what it assembles from them must not change. */
class PodFieldsTest {

    private static final RayCluster CLUSTER = RayClusters.walkthrough("default", "rc");
    private static final Map<String, Double> CPU = Map.of("CPU", 4.0);

    @Test
    void theAssemblySeesTheSameInTheKeptFieldsAsInTheWholePods() {
        List<Pod> whole = List.of(
                pod("rc-head", "head", "headgroup", "Running").build(),
                pod("rc-small-group-worker-a", "worker", "small-group", "Running").build(),
                pod("rc-small-group-worker-b", "worker", "small-group", "Pending").editStatus()
                        .addNewCondition().withType("PodScheduled").withStatus("False").withReason("Unschedulable")
                        .withMessage("0/3 nodes are available").endCondition().endStatus().build(),
                pod("rc-small-group-worker-c", "worker", "small-group", "Pending").editStatus()
                        .addNewCondition().withType("PodScheduled").withStatus("True").endCondition()
                        .addNewContainerStatus().withName("sidecar").withNewState().withNewRunning().endRunning().endState().endContainerStatus()
                        .addNewContainerStatus().withName("ray-worker").withNewState().withNewWaiting().withReason("ImagePullBackOff")
                        .endWaiting().endState().endContainerStatus().endStatus().build(),
                pod("rc-small-group-worker-d", "worker", "small-group", "Running").editMetadata()
                        .withDeletionTimestamp("2026-12-01T10:00:05Z").endMetadata().build(),
                pod("rc-small-group-worker-e", "worker", "small-group", "Running").build());
        List<Pod> kept = whole.stream().map(PodFields::kept).toList();
        GcsRead read = new GcsRead.Answered(RayState.of(GcsStates.state(7)
                .node("head-node", "rc-head", "headgroup", NodeStatus.RUNNING, CPU, CPU, 0)
                .node("node-a", "rc-small-group-worker-a", "small-group", NodeStatus.RUNNING, CPU, Map.of("CPU", 1.0), 0)
                .tasks(Map.of("CPU", 1.0), 12)
                .build(), pod -> null));
        SnapshotAssembler assembler = new SnapshotAssembler("ray.io/worker-group-replica-name");

        ClusterSnapshot fromWhole = assembler.assemble(CLUSTER, whole, read, KubernetesSource.ok("41", 2), Instant.EPOCH, 3);
        ClusterSnapshot fromKept = assembler.assemble(CLUSTER, kept, read, KubernetesSource.ok("41", 2), Instant.EPOCH, 3);

        assertThat(fromKept).isEqualTo(fromWhole);
        assertThat(Fingerprint.of(CLUSTER, kept, read)).isEqualTo(Fingerprint.of(CLUSTER, whole, read));
        // The case holds what the kept fields are for: a scheduling failure, a waiting container, a terminating pod.
        assertThat(fromWhole.pendingPods()).extracting(PendingPod::podName, PendingPod::reason).contains(
                org.assertj.core.groups.Tuple.tuple("rc-small-group-worker-b", "Unschedulable"),
                org.assertj.core.groups.Tuple.tuple("rc-small-group-worker-c", "ImagePullBackOff"));
        assertThat(fromWhole.pendingPods()).extracting(PendingPod::podName).doesNotContain("rc-small-group-worker-d");
        assertThat(kept).allSatisfy(pod -> assertThat(pod.getSpec()).isNull());
    }

    private static PodBuilder pod(String name, String nodeType, String group, String phase) {
        return new PodBuilder().withNewMetadata().withName(name).withNamespace("default").withUid("uid-" + name).withResourceVersion("40")
                .addToLabels(Map.of(SnapshotAssembler.CLUSTER_LABEL, "rc", SnapshotAssembler.NODE_TYPE_LABEL, nodeType,
                        SnapshotAssembler.GROUP_LABEL, group))
                .addToAnnotations("ray.io/ft-enabled", "false").withCreationTimestamp("2026-12-01T10:00:00Z").endMetadata()
                .withNewSpec().addNewContainer().withName("ray-" + nodeType).withImage("rayproject/ray:2.41.0")
                .withArgs("ray start --block").endContainer().endSpec()
                .withNewStatus().withPhase(phase).endStatus();
    }
}
