package dev.rayscale.sim;

import static dev.rayscale.sim.SimFixture.ONE_CPU;
import static org.assertj.core.api.Assertions.assertThat;

import dev.rayscale.gcs.proto.DrainNodeReason;
import dev.rayscale.gcs.proto.NodeStatus;
import io.fabric8.kubernetes.api.model.Pod;
import io.ray.v1.rayclusterstatus.Conditions;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The simulated KubeRay operator and kubelet against the facts of the shared
 * ray-kuberay-behaviours.md, section B, one case per fact, each named after it, observed through the
 * Kubernetes API as Rayscale observes them.
 */
class KubeRayConformanceTest {

    static Stream<Named<Fact>> facts() {
        return Stream.of(
                fact("B6.24 desired pods are clamp(replicas, min, max) x numOfHosts", f -> {
                    f.editGroup("cpu", spec -> {
                        spec.setMinReplicas(2);
                        spec.setReplicas(0);
                    });
                    f.replicas("tpu", 9);
                    f.advance(3);
                    assertThat(f.podNames("cpu")).hasSize(2);
                    assertThat(f.podNames("tpu")).as("max 4 replicas of 2 hosts").hasSize(8);
                }),
                fact("B6.25.1 after deleting pods the operator leaves the group alone until they are gone", f -> {
                    List<String> pods = f.running("cpu", 2);
                    f.editGroup("cpu", spec -> {
                        spec.getScaleStrategy().setWorkersToDelete(List.of(pods.get(0)));
                        spec.setReplicas(2);
                    });
                    f.advance(0.25);
                    assertThat(f.podNames("cpu")).as("in the same pass: the named pod terminates, a new one is created").hasSize(3);
                    f.replicas("cpu", 4);
                    f.advance(1);
                    assertThat(f.podNames("cpu")).as("later passes skip the group while the pod terminates").hasSize(3);
                    f.advance(2);
                    assertThat(f.podNames("cpu")).doesNotContain(pods.get(0)).hasSize(4);
                }),
                fact("B6.25.2 an ended pod is deleted first, and nothing is created in that pass", "  restartPolicy: Never", f -> {
                    String pod = f.running("cpu", 1).get(0);
                    f.sim.ray().crashRaylet(pod);
                    f.advance(1.25);
                    assertThat(f.pods("cpu")).as("seen at the kubelet's next relist, deleted, and no replacement in that pass")
                            .singleElement().satisfies(p -> {
                        assertThat(phase(p)).isEqualTo("Failed");
                        assertThat(p.getMetadata().getDeletionTimestamp()).isNotNull();
                    });
                    f.advance(3);
                    assertThat(f.podNames("cpu")).singleElement().isNotEqualTo(pod);
                }),
                fact("B6.25.3 and B6.26 workersToDelete is deleted by name and never cleared by the operator", f -> {
                    List<String> pods = f.running("cpu", 3);
                    f.editGroup("cpu", spec -> {
                        spec.getScaleStrategy().setWorkersToDelete(List.of(pods.get(2)));
                        spec.setReplicas(2);
                    });
                    f.advance(5);
                    assertThat(f.podNames("cpu")).containsExactly(pods.get(0), pods.get(1));
                    assertThat(f.cluster().getSpec().getWorkerGroupSpecs().get(0).getScaleStrategy().getWorkersToDelete())
                            .containsExactly(pods.get(2));
                    assertThat(f.sim.invariants().operatorDeletions()).isZero();
                }),
                fact("B6.27 replicas lowered without names: the operator deletes the first pods as listed, busy or not", f -> {
                    List<String> pods = f.running("cpu", 3);
                    f.submit(ONE_CPU, 3, 100);
                    f.advance(1);
                    f.replicas("cpu", 2);
                    f.advance(0.5);
                    assertThat(f.sim.invariants().operatorDeletions()).isEqualTo(1);
                    assertThat(f.sim.invariants().busyDeletions()).isEqualTo(1);
                    assertThat(f.pods("cpu").get(0).getMetadata().getDeletionTimestamp()).as("the first by name: " + pods.get(0)).isNotNull();
                    assertThat(f.sim.happenings()).as("told, with what the operator counted").anySatisfy(happening -> assertThat(happening)
                            .contains("the operator deletes 1 pod(s) of group cpu of its own choice: replicas 2", pods.get(0)));
                }),
                fact("B6.28 a terminating pod still counts: no replacement until it is gone", f -> {
                    List<String> pods = f.running("cpu", 2);
                    f.sim.kubelet().delete(pods.get(0));
                    f.advance(1);
                    assertThat(f.podNames("cpu")).hasSize(2);
                    f.advance(2);
                    assertThat(f.podNames("cpu")).hasSize(2).doesNotContain(pods.get(0));
                }),
                fact("B6.29 and B9.34 a refused create: Warning event, ReplicaFailure condition, later groups untouched",
                        "  quota: {group: cpu, maxPods: 1}", quota -> {
                    {
                        quota.replicas("cpu", 3);
                        quota.replicas("tpu", 1);
                        quota.advance(2);
                        assertThat(quota.podNames("cpu")).hasSize(1);
                        assertThat(quota.podNames("tpu")).as("the pass ended at the first error").isEmpty();
                        assertThat(quota.events()).anyMatch(e -> "FailedToCreateWorkerPod".equals(e.getReason())
                                && e.getMessage().startsWith("Failed to create worker Pod for the cluster default/conf, pods \""));
                        Conditions failure = quota.cluster().getStatus().getConditions().stream()
                                .filter(c -> "ReplicaFailure".equals(c.getType())).findFirst().orElseThrow();
                        assertThat(failure.getStatus()).isEqualTo(Conditions.Status.TRUE);
                        assertThat(failure.getReason()).isEqualTo("FailedCreateWorkerPod");
                        assertThat(failure.getMessage()).startsWith("FailedCreateWorkerPod\npods \"conf-cpu-worker-").contains("exceeded quota");
                        quota.replicas("cpu", 1);
                        quota.advance(2);
                        assertThat(quota.podNames("tpu")).hasSize(2);
                        assertThat(quota.cluster().getStatus().getConditions()).noneMatch(c -> "ReplicaFailure".equals(c.getType()));
                    }
                }),
                fact("B7.30 a suspended cluster loses every pod, head included, keeps its replicas, and comes back when resumed", f -> {
                    f.running("cpu", 2);
                    f.patchSpec("{\"spec\":{\"suspend\":true}}");
                    f.advance(5);
                    assertThat(f.podNames("cpu")).isEmpty();
                    assertThat(f.head()).isNull();
                    assertThat(f.sim.gcsUp()).isFalse();
                    assertThat(f.cluster().getSpec().getWorkerGroupSpecs().get(0).getReplicas()).isEqualTo(2);
                    assertThat(f.cluster().getStatus().getConditions()).anyMatch(c -> "RayClusterSuspended".equals(c.getType()));
                    f.patchSpec("{\"spec\":{\"suspend\":false}}");
                    f.advance(10);
                    assertThat(f.podNames("cpu")).hasSize(2);
                    assertThat(f.sim.gcsUp()).isTrue();
                }),
                fact("B7.31 a suspended group loses its pods", f -> {
                    f.running("cpu", 2);
                    f.editGroup("cpu", spec -> spec.setSuspend(true));
                    f.advance(3);
                    assertThat(f.podNames("cpu")).isEmpty();
                }),
                fact("B8.32 multi-host pods carry their replica's name, index and host index", f -> {
                    f.replicas("tpu", 1);
                    f.advance(1);
                    assertThat(f.pods("tpu")).hasSize(2).allSatisfy(pod -> assertThat(pod.getMetadata().getLabels())
                            .containsKeys("ray.io/worker-group-replica-name", "ray.io/worker-group-replica-index", "ray.io/replica-host-index"));
                    assertThat(f.pods("tpu")).extracting(pod -> pod.getMetadata().getLabels().get("ray.io/replica-host-index"))
                            .containsExactlyInAnyOrder("0", "1");
                }),
                fact("B8.33 naming one host deletes its whole replica; an incomplete replica is cleaned up", f -> {
                    List<String> pods = f.running("tpu", 2);
                    String replica = f.pods("tpu").get(0).getMetadata().getLabels().get("ray.io/worker-group-replica-name");
                    f.editGroup("tpu", spec -> {
                        spec.getScaleStrategy().setWorkersToDelete(List.of(pods.get(0)));
                        spec.setReplicas(1);
                    });
                    f.advance(5);
                    assertThat(f.pods("tpu")).hasSize(2).noneMatch(pod -> replica.equals(pod.getMetadata().getLabels().get("ray.io/worker-group-replica-name")));
                    f.sim.kubelet().forceDelete(f.podNames("tpu").get(0));
                    f.advance(5);
                    assertThat(f.pods("tpu")).as("the other host went too, then a whole replica came back").hasSize(2)
                            .extracting(pod -> pod.getMetadata().getLabels().get("ray.io/worker-group-replica-name")).containsOnly(
                                    f.pods("tpu").get(0).getMetadata().getLabels().get("ray.io/worker-group-replica-name"));
                }),
                fact("A3.14 and B8.33 under restartPolicy Never: a host that accepts an idle drain exits, its pod ends, and the "
                        + "operator deletes its whole replica, a busy host with it", "  restartPolicy: Never", f -> {
                    List<String> hosts = f.running("tpu", 1);
                    f.submit(Map.of("TPU", 4.0), 1, 100);
                    f.advance(2);
                    String busy = hosts.stream().filter(pod -> f.aliveNodeOf(pod).getStatus() == NodeStatus.RUNNING).findFirst().orElseThrow();
                    String idle = hosts.stream().filter(pod -> !pod.equals(busy)).findFirst().orElseThrow();
                    assertThat(f.drain(SimFixture.id(f.aliveNodeOf(idle)), DrainNodeReason.DRAIN_NODE_REASON_IDLE_TERMINATION, 0)
                            .getIsAccepted()).isTrue();
                    f.advance(5);
                    assertThat(f.podNames("tpu")).as("the replica went whole").doesNotContain(idle, busy);
                    assertThat(f.sim.invariants().busyDeletions()).as("the busy host's work with it").isEqualTo(1);
                }),
                fact("D56 a spec ValidateRayClusterSpec refuses (1.6: minReplicas above maxReplicas) stops the reconcile: a Warning "
                        + "InvalidRayClusterSpec, no pod created for more replicas, no status written (raycluster_controller.go "
                        + "rayClusterReconcile, utils/validation.go at kuberay feeaf72f)", f -> {
                    f.running("cpu", 1);
                    long observed = f.cluster().getStatus().getObservedGeneration();
                    assertThat(observed).as("calculateStatus writes the generation it reconciled").isEqualTo(f.cluster().getMetadata().getGeneration());
                    f.editGroup("cpu", group -> {
                        group.setMinReplicas(12);
                        group.setMaxReplicas(10);
                        group.setReplicas(3);
                    });
                    f.advance(5);
                    assertThat(f.podNames("cpu")).as("nothing reconciled").hasSize(1);
                    assertThat(f.events()).anyMatch(e -> "InvalidRayClusterSpec".equals(e.getReason()) && "Warning".equals(e.getType())
                            && e.getMessage().equals("The RayCluster spec is invalid default/conf: worker group cpu has minReplicas 12 greater "
                                    + "than maxReplicas 10"));
                    assertThat(f.cluster().getStatus().getObservedGeneration()).as("observedGeneration stays behind").isEqualTo(observed);
                    f.editGroup("cpu", group -> group.setMinReplicas(0));
                    f.advance(5);
                    assertThat(f.podNames("cpu")).hasSize(3);
                    assertThat(f.cluster().getStatus().getObservedGeneration()).isEqualTo(f.cluster().getMetadata().getGeneration());
                }),
                fact("B10.36 restartPolicy Always (KubeRay leaves the template's when its autoscaler is off): the ray container restarts in its pod", f -> {
                    String pod = f.running("cpu", 1).get(0);
                    f.sim.ray().crashRaylet(pod);
                    f.advance(1);
                    assertThat(phase(f.pods("cpu").get(0))).isEqualTo("Running");
                    f.advance(12);
                    assertThat(f.pods("cpu")).singleElement().satisfies(p -> {
                        assertThat(p.getMetadata().getName()).isEqualTo(pod);
                        assertThat(p.getStatus().getContainerStatuses().get(0).getRestartCount()).isEqualTo(1);
                    });
                }));
    }

    /** A fact checked on a cluster whose spec has the extra lines {@code cluster} (restartPolicy, quota). */
    record Fact(String cluster, Consumer<SimFixture> check) {
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("facts")
    void behavesAsKubeRayDoes(Fact fact) {
        try (SimFixture fixture = SimFixture.start(fact.cluster())) {
            fact.check().accept(fixture);
        }
    }

    private static String phase(Pod pod) {
        return pod.getStatus().getPhase();
    }

    private static Named<Fact> fact(String name, Consumer<SimFixture> check) {
        return fact(name, "", check);
    }

    private static Named<Fact> fact(String name, String cluster, Consumer<SimFixture> check) {
        return Named.of(name, new Fact(cluster, check));
    }
}
