package dev.rayscale.collector;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rayscale.testsupport.RayClusters;
import io.ray.v1.RayCluster;
import java.util.List;
import org.junit.jupiter.api.Test;

class NamespaceQuotaTest {

    @Test
    void theNewestClustersBeyondANamespacesQuotaAreLeftAloneAndOtherNamespacesServed() {
        List<RayCluster> clusters = List.of(
                created("crowded", "c", "2026-12-05T10:00:03Z"), created("crowded", "a", "2026-12-05T10:00:01Z"),
                created("crowded", "b", "2026-12-05T10:00:02Z"), created("crowded", "d", "2026-12-05T10:00:02Z"),
                created("quiet", "z", "2026-12-05T10:00:09Z"));

        assertThat(NamespaceQuota.beyond(clusters, 2)).containsExactlyInAnyOrder("crowded/c", "crowded/d");
        assertThat(NamespaceQuota.beyond(clusters, 4)).isEmpty();
    }

    private static RayCluster created(String namespace, String name, String at) {
        RayCluster cluster = RayClusters.walkthrough(namespace, name);
        cluster.getMetadata().setCreationTimestamp(at);
        return cluster;
    }
}
