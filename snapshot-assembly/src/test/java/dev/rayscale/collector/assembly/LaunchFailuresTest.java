package dev.rayscale.collector.assembly;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.ray.v1.RayCluster;
import io.ray.v1.RayClusterSpec;
import io.ray.v1.RayClusterStatus;
import io.ray.v1.rayclusterspec.WorkerGroupSpecs;
import io.ray.v1.rayclusterstatus.Conditions;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The group a {@code ReplicaFailure} names, by the pod names KubeRay really gives (fact D57: {@code utils.PodGenerateName}
 * from 1.2 keeps the first 50 characters of {@code <cluster>-<group>}; {@code utils.CheckName} before kept the last 50 of
 * {@code <cluster>-worker-<group>-} and made a leading digit {@code r}). Each cluster here has two groups short of pods, the
 * failing one second: only its name in the message can point at it.
 */
class LaunchFailuresTest {

    /** 44 characters: with any group name longer than 5, KubeRay cuts the prefix. */
    private static final String LONG_CLUSTER = "team-recommendations-embedding-train-cluster";

    @Test
    void aLongNameCutByCurrentKubeRayNamesItsGroup() {
        RayCluster cluster = cluster(LONG_CLUSTER, "cpu", "gpu-a100-eight-way");
        // PodGenerateName: first 50 of "<cluster>-gpu-a100-eight-way", then "-worker-" and 5 random characters.
        failing(cluster, "team-recommendations-embedding-train-cluster-gpu-a-worker-x7k2p");

        assertThat(LaunchFailures.byGroup(cluster, List.of())).containsOnlyKeys("gpu-a100-eight-way");
    }

    @Test
    void aLongNameCutByAnOlderKubeRayNamesItsGroup() {
        RayCluster cluster = cluster(LONG_CLUSTER, "cpu", "gpu-a100-eight-way");
        // CheckName: the last 50 of "<cluster>-worker-gpu-a100-eight-way-", then 5 random characters.
        failing(cluster, "embedding-train-cluster-worker-gpu-a100-eight-way-abcde");

        assertThat(LaunchFailures.byGroup(cluster, List.of())).containsOnlyKeys("gpu-a100-eight-way");
    }

    @Test
    void groupsWhoseCutNamesAgreeFallBackToTheFirstOfThemShortOfPods() {
        RayCluster cluster = cluster(LONG_CLUSTER, "cpu", "gpu-a100-large", "gpu-a100-small");
        failing(cluster, "team-recommendations-embedding-train-cluster-gpu-a-worker-x7k2p");

        assertThat(LaunchFailures.byGroup(cluster, List.of())).as("not cpu, which the name rules out")
                .containsOnlyKeys("gpu-a100-large");
    }

    @Test
    void aMessageNamingNoPodFallsBackToTheFirstGroupShortOfPods() {
        RayCluster cluster = cluster("rc", "cpu", "gpu");
        failing(cluster, "admission webhook \"quota.example.com\" denied the request");

        assertThat(LaunchFailures.byGroup(cluster, List.of())).containsOnlyKeys("cpu");
    }

    @Test
    void prefixesOfBothNamingSchemes() {
        assertThat(LaunchFailures.podNamePrefixes("rc", "GPU")).containsExactly("rc-gpu-worker-", "rc-worker-gpu-");
        assertThat(LaunchFailures.podNamePrefixes("1rc", "gpu")).as("CheckName makes a leading digit r")
                .containsExactly("1rc-gpu-worker-", "rrc-worker-gpu-");
    }

    private static RayCluster cluster(String name, String... groups) {
        RayCluster cluster = new RayCluster();
        ObjectMeta metadata = new ObjectMeta();
        metadata.setName(name);
        metadata.setNamespace("default");
        cluster.setMetadata(metadata);
        RayClusterSpec spec = new RayClusterSpec();
        spec.setWorkerGroupSpecs(Arrays.stream(groups).map(group -> {
            WorkerGroupSpecs worker = new WorkerGroupSpecs();
            worker.setGroupName(group);
            worker.setReplicas(2);
            worker.setMinReplicas(0);
            worker.setMaxReplicas(10);
            return worker;
        }).toList());
        cluster.setSpec(spec);
        return cluster;
    }

    private static void failing(RayCluster cluster, String podNameOrMessage) {
        Conditions failure = new Conditions();
        failure.setType("ReplicaFailure");
        failure.setStatus(Conditions.Status.TRUE);
        failure.setReason("FailedCreateWorkerPod");
        failure.setMessage(podNameOrMessage.contains(" ") ? "FailedCreateWorkerPod\n" + podNameOrMessage
                : "FailedCreateWorkerPod\npods \"" + podNameOrMessage + "\" is forbidden: exceeded quota: q");
        RayClusterStatus status = new RayClusterStatus();
        status.setConditions(List.of(failure));
        cluster.setStatus(status);
        assertThat(LaunchFailures.condition(cluster)).isNotEmpty();
    }
}
