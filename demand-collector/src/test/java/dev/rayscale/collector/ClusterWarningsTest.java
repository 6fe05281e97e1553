package dev.rayscale.collector;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rayscale.clients.UnknownEnumValues;
import dev.rayscale.testsupport.RayClusterCrd;
import dev.rayscale.testsupport.RayClusters;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.ray.v1.RayCluster;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

@EnableKubernetesMockClient(crud = true)
class ClusterWarningsTest {

    KubernetesClient client;
    private ClusterWarnings warnings;
    private RayCluster cluster;

    @BeforeEach
    void start() {
        RayClusterCrd.register(client);
        warnings = new ClusterWarnings(client, new UnknownEnumValues());
        cluster = client.resources(RayCluster.class).inNamespace("ml").resource(RayClusters.walkthrough("ml", "misread")).create();
    }

    @Test
    void warnsOncePerGenerationOfTheSpecAndReason() {
        warnings.once(cluster, "SnapshotTooLarge", "too large");
        warnings.once(cluster, "SnapshotTooLarge", "too large");
        warnings.once(cluster, "InTreeAutoscalingEnabled", "in-tree");
        assertThat(reasons()).containsExactlyInAnyOrder("SnapshotTooLarge", "InTreeAutoscalingEnabled");

        cluster.getMetadata().setGeneration(cluster.getMetadata().getGeneration() + 1);
        warnings.once(cluster, "SnapshotTooLarge", "still too large");
        warnings.once(cluster, "SnapshotTooLarge", "still too large");
        assertThat(reasons()).containsExactlyInAnyOrder("SnapshotTooLarge", "InTreeAutoscalingEnabled", "SnapshotTooLarge");
    }

    @Test
    void forgetsADeletedCluster() {
        warnings.once(cluster, "SnapshotTooLarge", "too large");

        warnings.forget(cluster);

        warnings.once(cluster, "SnapshotTooLarge", "too large");
        assertThat(reasons()).as("nothing was left remembered of it").containsExactly("SnapshotTooLarge", "SnapshotTooLarge");
    }

    private List<String> reasons() {
        return client.v1().events().inNamespace("ml").list().getItems().stream().map(Event::getReason).toList();
    }
}
