package dev.rayscale.collector.assembly;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rayscale.events.ClusterSnapshot;
import dev.rayscale.events.KubernetesSource;
import dev.rayscale.events.PodState;
import dev.rayscale.events.RayNode;
import dev.rayscale.events.SourceStatus;
import dev.rayscale.gcs.proto.NodeStatus;
import dev.rayscale.sim.GcsStates;
import dev.rayscale.testsupport.RayClusters;
import io.fabric8.kubernetes.api.model.Pod;
import io.ray.v1.RayCluster;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The collector's assembly, pure, case by case: what the snapshot says of a cluster as observed. */
class SnapshotAssemblerTest {

    private static final RayCluster CLUSTER = RayClusters.walkthrough("default", "rc");
    private static final Map<String, Double> CPU = Map.of("CPU", 1.0);

    /** A named case: the pods and the GCS read, and what must hold of the snapshot assembled from them. */
    record Case(List<RayPod> pods, GcsRead gcs, Consumer<ClusterSnapshot> then) {
    }

    static Stream<Named<Case>> cases() {
        RayPod head = ray(RayClusters.headPod(CLUSTER, "rc-head"));
        RayPod worker = ray(RayClusters.workerPod(CLUSTER, "small-group", "rc-worker-a", "Running"));
        return Stream.of(
                when("an unreadable GCS is UNAVAILABLE with its code, and no nodes, pods or demand: unknown is not zero",
                        List.of(head, worker), new GcsRead.Failed("DEADLINE_EXCEEDED", "no answer in 2 s"), snapshot -> {
                            assertThat(snapshot.sources().gcs().status()).isEqualTo(SourceStatus.UNAVAILABLE);
                            assertThat(snapshot.sources().gcs().errorCode()).isEqualTo("DEADLINE_EXCEEDED");
                            assertThat(snapshot.hasRayState()).isFalse();
                            assertThat(snapshot.nodes()).isNull();
                            assertThat(snapshot.pendingPods()).isNull();
                            assertThat(snapshot.demand()).isNull();
                        }),
                when("an answer brings the GCS's version, its nodes and its demand", List.of(head, worker),
                        answered(GcsStates.state(7).node("node-a", "rc-worker-a", "small-group", NodeStatus.RUNNING, CPU, CPU, 0)
                                .tasks(CPU, 15)), snapshot -> {
                            assertThat(snapshot.sources().gcs().stateVersion()).isEqualTo(7L);
                            assertThat(snapshot.nodes()).extracting(RayNode::podName).containsExactly("rc-worker-a");
                            assertThat(snapshot.demand().tasks()).singleElement().satisfies(task -> assertThat(task.count()).isEqualTo(15));
                            assertThat(snapshot.pendingPods()).isEmpty();
                        }),
                when("a node whose pod is gone says so: a raylet may outlive its pod (fact A4.19)", List.of(head),
                        answered(GcsStates.state(7).node("node-a", "rc-worker-a", "small-group", NodeStatus.IDLE, CPU, CPU, 60_000)),
                        snapshot -> assertThat(snapshot.nodes()).singleElement()
                                .satisfies(node -> assertThat(node.podState()).isEqualTo(PodState.GONE))),
                when("a worker pod with no Ray node is pending, with its phase", List.of(head, worker), answered(GcsStates.state(7)),
                        snapshot -> assertThat(snapshot.pendingPods()).singleElement()
                                .satisfies(pod -> assertThat(pod.podName()).isEqualTo("rc-worker-a"))));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void assembles(Case assemblyCase) {
        assemblyCase.then().accept(SnapshotAssembler.assemble(CLUSTER, assemblyCase.pods(), assemblyCase.gcs(), KubernetesSource.ok("41", 2),
                Instant.EPOCH, 3, null));
    }

    /**
     * Issue 50: {@code numOfHosts: 5000000} with one pending task made the shared planner open five million nodes. The
     * cluster is refused where it is read (ClusterPoller holds it, with a Warning Event quoting this message).
     */
    @Test
    void aGroupOfMillionsOfHostsIsRefusedWhereItIsRead() {
        RayCluster hostile = RayClusters.walkthrough("default", "hostile");
        hostile.getSpec().getWorkerGroupSpecs().get(0).setNumOfHosts(5_000_000);
        assertThatThrownBy(() -> SnapshotAssembler.assemble(hostile, List.of(), answered(GcsStates.state(7).tasks(CPU, 1)),
                KubernetesSource.ok("41", 2), Instant.EPOCH, 3, null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("worker group 'small-group' has numOfHosts 5000000, above the 1024 Rayscale serves");
    }

    /** Replicas of billions overflowed the planner's count of pods to come; they are refused where they are read. */
    @Test
    void replicasOfBillionsOfPodsAreRefusedWhereTheyAreRead() {
        RayCluster hostile = RayClusters.walkthrough("default", "hostile");
        hostile.getSpec().getWorkerGroupSpecs().get(0).setNumOfHosts(2);
        hostile.getSpec().getWorkerGroupSpecs().get(0).setReplicas(Integer.MAX_VALUE);
        assertThatThrownBy(() -> SnapshotAssembler.assemble(hostile, List.of(), answered(GcsStates.state(7).tasks(CPU, 1)),
                KubernetesSource.ok("41", 2), Instant.EPOCH, 3, null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("worker group 'small-group' has replicas 2147483647 of 2 host(s) each, above the 100000 workers Rayscale serves "
                        + "in a cluster");
    }

    @Test
    void newsIsWhatTheGcsSaysNotItsVersionWhichEveryReadBumps() {
        List<RayPod> pods = List.of(ray(RayClusters.headPod(CLUSTER, "rc-head")));

        Fingerprint read = Fingerprint.of(CLUSTER, pods, answered(GcsStates.state(7).tasks(CPU, 15)), null);

        assertThat(Fingerprint.of(CLUSTER, pods, answered(GcsStates.state(8).tasks(CPU, 15)), null)).isEqualTo(read);
        assertThat(Fingerprint.of(CLUSTER, pods, answered(GcsStates.state(8).tasks(CPU, 16)), null)).isNotEqualTo(read);
        assertThat(Fingerprint.of(CLUSTER, pods, new GcsRead.Failed("UNAVAILABLE", "refused"), null)).isNotEqualTo(read)
                .isNotEqualTo(Fingerprint.of(CLUSTER, pods, new GcsRead.Failed("DEADLINE_EXCEEDED", "slow"), null));
    }

    @Test
    void newsIsNotANodesGrowingIdleTimeNorTheOrderOfThePodsButAPodsPhase() {
        RayPod head = ray(RayClusters.headPod(CLUSTER, "rc-head"));
        RayPod worker = ray(RayClusters.workerPod(CLUSTER, "small-group", "rc-worker-a", "Pending"));
        GcsRead idle = answered(GcsStates.state(7).node("node-a", "rc-worker-a", "small-group", NodeStatus.IDLE, CPU, CPU, 1_000));

        Fingerprint read = Fingerprint.of(CLUSTER, List.of(head, worker), idle, null);

        assertThat(Fingerprint.of(CLUSTER, List.of(worker, head),
                answered(GcsStates.state(8).node("node-a", "rc-worker-a", "small-group", NodeStatus.IDLE, CPU, CPU, 61_000)), null))
                .isEqualTo(read);
        assertThat(Fingerprint.of(CLUSTER, List.of(head, ray(RayClusters.workerPod(CLUSTER, "small-group", "rc-worker-a", "Running"))), idle, null))
                .isNotEqualTo(read);
        assertThat(Fingerprint.of(CLUSTER, List.of(head), idle, null)).isNotEqualTo(read);
        assertThat(Fingerprint.of(CLUSTER, List.of(head, worker),
                answered(GcsStates.state(7).node("node-a", "rc-worker-a", "small-group", NodeStatus.RUNNING, CPU, Map.of("CPU", 0.0), 0)), null))
                .isNotEqualTo(read);
    }

    @Test
    void newsIsEveryResourceOfANodeAndTheDigestKeepsItsFieldsApart() {
        List<RayPod> pods = List.of(ray(RayClusters.headPod(CLUSTER, "rc-head")));
        // Node ids are sent as bytes and read as hex: "a" is "61", "ab" is "6162", so both nodes' id and pod name run
        // together to "6162c"; only a digest that marks where each text ends tells them apart.
        Fingerprint read = Fingerprint.of(CLUSTER, pods, answered(GcsStates.state(7).node("a", "62c", "small-group", NodeStatus.IDLE, CPU, CPU, 0)), null);

        assertThat(Fingerprint.of(CLUSTER, pods, answered(GcsStates.state(7).node("ab", "c", "small-group", NodeStatus.IDLE, CPU, CPU, 0)), null))
                .isNotEqualTo(read);
        assertThat(Fingerprint.of(CLUSTER, pods,
                answered(GcsStates.state(7).node("a", "62c", "small-group", NodeStatus.IDLE, Map.of("CPU", 2.0), CPU, 0)), null))
                .isNotEqualTo(read);
        assertThat(Fingerprint.of(CLUSTER, pods, answered(GcsStates.state(9).node("a", "62c", "small-group", NodeStatus.IDLE, CPU, CPU, 5)), null))
                .isEqualTo(read);
    }

    private static Named<Case> when(String name, List<RayPod> pods, GcsRead gcs, Consumer<ClusterSnapshot> then) {
        return Named.of(name, new Case(pods, gcs, then));
    }

    private static RayPod ray(Pod pod) {
        return RayPod.of(pod, "ray.io/worker-group-replica-name");
    }

    private static GcsRead answered(GcsStates state) {
        return new GcsRead.Answered(RayState.of(state.build(), pod -> null));
    }
}
