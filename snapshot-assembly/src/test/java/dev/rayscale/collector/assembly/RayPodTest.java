package dev.rayscale.collector.assembly;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

import dev.rayscale.events.ClusterSnapshot;
import dev.rayscale.events.KubernetesSource;
import dev.rayscale.events.PendingPod;
import dev.rayscale.gcs.proto.NodeStatus;
import dev.rayscale.events.KubeRayGeneration;
import dev.rayscale.kuberay.NodeEnv;
import dev.rayscale.kuberay.RayLabels;
import dev.rayscale.sim.GcsStates;
import dev.rayscale.testsupport.RayClusters;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.ray.v1.RayCluster;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The collector keeps each pod as a {@link RayPod}: what it reads of a whole pod, and what the assembly makes of it. */
class RayPodTest {

    private static final RayCluster CLUSTER = RayClusters.walkthrough("default", "rc");
    private static final Map<String, Double> CPU = Map.of("CPU", 4.0);
    private static final String REPLICA_LABEL = "ray.io/worker-group-replica-name";

    @Test
    void keepsTheIdentityTheLabelsAndTheCreationTime() {
        RayPod pod = RayPod.of(pod("rc-small-group-worker-a", "worker", "small-group", "Running").editMetadata()
                .addToLabels(REPLICA_LABEL, "small-group-0").endMetadata().build(), REPLICA_LABEL);

        assertThat(pod).isEqualTo(new RayPod("default", "rc-small-group-worker-a", "40", "default/rc", "worker", "small-group",
                "small-group-0", Instant.parse("2026-12-01T10:00:00Z"), false, "Running", null, KubeRayGeneration.BEFORE_1_1));
        assertThat(pod.worker()).isTrue();
    }

    @Test
    void whyAPodIsNotRunningIsItsSchedulingFailureFirstThenAWaitingContainer() {
        Pod unschedulable = pod("rc-small-group-worker-b", "worker", "small-group", "Pending").editStatus()
                .addNewContainerStatus().withName("ray-worker").withNewState().withNewWaiting().withReason("ContainerCreating")
                .endWaiting().endState().endContainerStatus()
                .addNewCondition().withType("PodScheduled").withStatus("False").withReason("Unschedulable")
                .withMessage("0/3 nodes are available").endCondition().endStatus().build();
        Pod pulling = pod("rc-small-group-worker-c", "worker", "small-group", "Pending").editStatus()
                .addNewCondition().withType("PodScheduled").withStatus("True").endCondition()
                .addNewContainerStatus().withName("sidecar").withNewState().withNewRunning().endRunning().endState().endContainerStatus()
                .addNewContainerStatus().withName("ray-worker").withNewState().withNewWaiting().withReason("ImagePullBackOff")
                .endWaiting().endState().endContainerStatus().endStatus().build();

        assertThat(RayPod.of(unschedulable, REPLICA_LABEL).waitingReason()).isEqualTo("Unschedulable");
        assertThat(RayPod.of(pulling, REPLICA_LABEL).waitingReason()).isEqualTo("ImagePullBackOff");
    }

    @Test
    void whatAPodLacksStaysUnknownInsteadOfFailingTheCache() {
        Pod bare = new PodBuilder().withNewMetadata().withName("stray").withNamespace("default")
                .withCreationTimestamp("yesterday").endMetadata().build();

        assertThat(RayPod.of(bare, REPLICA_LABEL)).isEqualTo(new RayPod("default", "stray", null, null, null, null, null, null,
                false, null, null, null));
    }

    /** What the Ray container carries tells the KubeRay that made the pod (kuberay's tags v1.1.0 and v1.6.0, setContainerEnvVars). */
    @Test
    void theRayContainersEnvironmentTellsWhichKubeRayMadeThePod() {
        PodBuilder withInstanceId = pod("rc-small-group-worker-a", "worker", "small-group", "Running").editSpec().editFirstContainer()
                .addNewEnv().withName(NodeEnv.INSTANCE_ID).withNewValueFrom().withNewFieldRef("v1", "metadata.name").endValueFrom().endEnv()
                .endContainer().endSpec();

        assertThat(RayPod.of(pod("rc-head", "head", "headgroup", "Running").build(), REPLICA_LABEL).kubeRay())
                .isEqualTo(KubeRayGeneration.BEFORE_1_1);
        assertThat(RayPod.of(withInstanceId.build(), REPLICA_LABEL).kubeRay()).isEqualTo(KubeRayGeneration.FROM_1_1);
        assertThat(RayPod.of(withInstanceId.editSpec().editFirstContainer().addNewEnv().withName(NodeEnv.CLUSTER_NAMESPACE).endEnv()
                .endContainer().endSpec().build(), REPLICA_LABEL).kubeRay()).isEqualTo(KubeRayGeneration.FROM_1_6);
    }

    @Test
    void podsShareOneCopyOfTheValuesTheyHaveInCommon() {
        RayPod a = RayPod.of(pod("rc-small-group-worker-a", "worker", new String("small-group"), "Running").build(), REPLICA_LABEL);
        RayPod b = RayPod.of(pod("rc-small-group-worker-b", "worker", new String("small-group"), "Running").build(), REPLICA_LABEL);

        assertThat(a.group()).isSameAs(b.group());
        assertThat(a.clusterId()).isSameAs(b.clusterId());
        assertThat(a.phase()).isSameAs(b.phase());
    }

    @Test
    void theAssemblyReadsPendingWorkersFromTheKeptPods() {
        List<RayPod> pods = List.of(
                pod("rc-head", "head", "headgroup", "Running").build(),
                pod("rc-small-group-worker-a", "worker", "small-group", "Running").build(),
                pod("rc-small-group-worker-b", "worker", "small-group", "Pending").editStatus()
                        .addNewCondition().withType("PodScheduled").withStatus("False").withReason("Unschedulable").endCondition()
                        .endStatus().build(),
                pod("rc-small-group-worker-d", "worker", "small-group", "Running").editMetadata()
                        .withDeletionTimestamp("2026-12-01T10:00:05Z").endMetadata().build(),
                pod("rc-small-group-worker-e", "worker", "small-group", null).build())
                .stream().map(pod -> RayPod.of(pod, REPLICA_LABEL)).toList();
        GcsRead read = new GcsRead.Answered(RayState.of(GcsStates.state(7)
                .node("head-node", "rc-head", "headgroup", NodeStatus.RUNNING, CPU, CPU, 0)
                .node("node-a", "rc-small-group-worker-a", "small-group", NodeStatus.RUNNING, CPU, Map.of("CPU", 1.0), 0)
                .build(), pod -> null));

        ClusterSnapshot snapshot = SnapshotAssembler.assemble(CLUSTER, pods, read, KubernetesSource.ok("41", 2), Instant.EPOCH, 3, null);

        assertThat(snapshot.pendingPods()).extracting(PendingPod::podName, PendingPod::phase, PendingPod::reason, PendingPod::createdAt)
                .containsExactlyInAnyOrder(
                        tuple("rc-small-group-worker-b", "Pending", "Unschedulable", Instant.parse("2026-12-01T10:00:00Z")),
                        tuple("rc-small-group-worker-e", "Pending", null, Instant.parse("2026-12-01T10:00:00Z")));
        assertThat(snapshot.workerGroups()).singleElement()
                .satisfies(group -> assertThat(group.terminatingPods()).containsExactly("rc-small-group-worker-d"));
    }

    private static PodBuilder pod(String name, String nodeType, String group, String phase) {
        return new PodBuilder().withNewMetadata().withName(name).withNamespace("default").withUid("uid-" + name).withResourceVersion("40")
                .addToLabels(Map.of(RayLabels.CLUSTER, "rc", RayLabels.NODE_TYPE, nodeType, RayLabels.GROUP, group))
                .addToAnnotations("ray.io/ft-enabled", "false").withCreationTimestamp("2026-12-01T10:00:00Z").endMetadata()
                .withNewSpec().addNewContainer().withName("ray-" + nodeType).withImage("rayproject/ray:2.41.0")
                .withArgs("ray start --block").endContainer().endSpec()
                .withNewStatus().withPhase(phase).endStatus();
    }
}
