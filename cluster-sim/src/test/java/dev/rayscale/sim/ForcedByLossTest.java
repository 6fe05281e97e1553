package dev.rayscale.sim;

import static dev.rayscale.sim.SimFixture.ONE_CPU;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.ray.v1.RayCluster;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * How the simulator tells the one deletion of the operator's own choice no client can prevent from one a client caused.
 * A client reads the pods, names one for deletion and lowers {@code replicas} by one in a patch (as Ray's autoscaler and
 * Rayscale do, fact B6.27). If the named pod is lost after that read and the operator replaces it before it sees the
 * patch, the operator then counts one pod more than {@code replicas} and deletes one of its choice (B6.25.3 and B6.27,
 * {@code reconcilePods} at kuberay feeaf72f: the named pod's delete is NotFound and ignored, the replacement is counted):
 * forced by the loss. A client that read the pods after the loss and still named the pod caused it.
 */
class ForcedByLossTest {

    @Test
    void aNamedPodLostAfterTheClientsReadAndReplacedForcesTheOperatorsChoice() {
        try (SimFixture f = SimFixture.start(); KubernetesClient rayscale = client(f)) {
            List<String> pods = f.running("cpu", 3);
            f.submit(ONE_CPU, 2, 100);
            f.advance(1);
            String idle = pods.stream().filter(pod -> !f.sim.ray().busy(pod)).findFirst().orElseThrow();

            readPods(rayscale);
            f.sim.kubelet().forceDelete(idle);
            f.advance(0.25);
            assertThat(f.podNames("cpu")).as("replaced under replicas 3").hasSize(3).doesNotContain(idle);
            f.advance(3);
            f.submit(ONE_CPU, 1, 100);
            f.advance(1);
            assertThat(f.podNames("cpu")).as("every pod runs work").allMatch(pod -> f.sim.ray().busy(pod));
            scaleDown(rayscale, idle);
            f.advance(0.25);

            ClusterSimulator.Invariants invariants = f.sim.invariants();
            assertThat(invariants.deletionsForcedByLoss()).isEqualTo(1);
            assertThat(invariants.busyDeletionsForcedByLoss()).as("the pod it chose ran work").isEqualTo(1);
            assertThat(invariants.operatorDeletions()).isZero();
            assertThat(invariants.busyDeletions()).isZero();
            assertThat(f.sim.happenings()).anySatisfy(happening -> assertThat(happening)
                    .contains("of its own choice", "forced: [" + idle + "] were lost after Rayscale last read the pods"));
        }
    }

    @Test
    void aNamedPodTheClientHadSeenGoneIsTheClientsDoing() {
        try (SimFixture f = SimFixture.start(); KubernetesClient rayscale = client(f)) {
            List<String> pods = f.running("cpu", 3);
            readPods(rayscale);
            f.sim.kubelet().forceDelete(pods.get(2));
            f.advance(0.25);
            assertThat(readPods(rayscale)).as("the client sees it gone").doesNotContain(pods.get(2));
            scaleDown(rayscale, pods.get(2));
            f.advance(0.25);

            ClusterSimulator.Invariants invariants = f.sim.invariants();
            assertThat(invariants.operatorDeletions()).isEqualTo(1);
            assertThat(invariants.deletionsForcedByLoss()).isZero();
        }
    }

    /** A client as Rayscale's services are: without the header the simulated cluster's own parts send. */
    private static KubernetesClient client(SimFixture f) {
        return new KubernetesClientBuilder().withConfig(new ConfigBuilder().withMasterUrl(f.sim.apiServerUrl()).build()).build();
    }

    /** As the actuator reads them: by the cluster's label. */
    private static List<String> readPods(KubernetesClient rayscale) {
        return rayscale.pods().inNamespace("default").withLabel("ray.io/cluster", SimFixture.NAME).list().getItems().stream()
                .map(pod -> pod.getMetadata().getName()).toList();
    }

    private static void scaleDown(KubernetesClient rayscale, String pod) {
        rayscale.resources(RayCluster.class).inNamespace("default").withName(SimFixture.NAME).patch(PatchContext.of(PatchType.JSON),
                "[{\"op\":\"replace\",\"path\":\"/spec/workerGroupSpecs/0/replicas\",\"value\":2},"
                        + "{\"op\":\"add\",\"path\":\"/spec/workerGroupSpecs/0/scaleStrategy\",\"value\":{\"workersToDelete\":[\"" + pod + "\"]}}]");
    }
}
