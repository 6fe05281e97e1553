package dev.rayscale.collector;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rayscale.collector.assembly.RayPod;
import dev.rayscale.kuberay.RayLabels;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The pod informer's store: what the informer reads back of it, and each cluster's pods as polls read them. */
class PodCacheTest {

    private final PodCache cache = new PodCache("ray.io/worker-group-replica-name");

    @Test
    void theInformerReadsBackEachPodsKeyAndResourceVersionAndWhatAnUpdateReplaced() {
        assertThat(cache.put("team-a/rc-worker-a", pod("team-a", "rc", "rc-worker-a", "40", "Pending"))).isNull();

        Pod replaced = cache.put("team-a/rc-worker-a", pod("team-a", "rc", "rc-worker-a", "41", "Running"));

        assertThat(replaced.getMetadata().getResourceVersion()).isEqualTo("40");
        assertThat(cache.getKey(replaced)).isEqualTo("team-a/rc-worker-a");
        assertThat(cache.get("team-a/rc-worker-a").getMetadata().getResourceVersion()).isEqualTo("41");
        assertThat(cache.get("team-a/rc-worker-a").getSpec()).isNull();
        assertThat(cache.keySet()).containsExactly("team-a/rc-worker-a");
        assertThat(cache.values()).extracting(pod -> pod.getMetadata().getName()).containsExactly("rc-worker-a");
        assertThat(cache.size()).isEqualTo(1);
        assertThat(cache.pods("team-a/rc")).extracting(RayPod::phase).containsExactly("Running");
    }

    @Test
    void aPollReadsOnlyItsClustersPodsAndNoneThatWereRemoved() {
        cache.put("team-a/rc-worker-a", pod("team-a", "rc", "rc-worker-a", "40", "Running"));
        cache.put("team-a/rc-worker-b", pod("team-a", "rc", "rc-worker-b", "41", "Running"));
        cache.put("team-a/other-worker-a", pod("team-a", "other", "other-worker-a", "42", "Running"));
        cache.put("team-b/rc-worker-a", pod("team-b", "rc", "rc-worker-a", "43", "Running"));

        Pod removed = cache.remove("team-a/rc-worker-a");

        assertThat(removed.getMetadata().getName()).isEqualTo("rc-worker-a");
        assertThat(cache.pods("team-a/rc")).extracting(RayPod::name).containsExactly("rc-worker-b");
        assertThat(cache.pods("team-a/other")).extracting(RayPod::name).containsExactly("other-worker-a");
        assertThat(cache.pods("team-b/rc")).extracting(RayPod::resourceVersion).containsExactly("43");
        assertThat(cache.remove("team-a/rc-worker-a")).isNull();
        assertThat(cache.remove("team-a/rc-worker-b")).isNotNull();
        assertThat(cache.pods("team-a/rc")).isEmpty();
        assertThat(cache.size()).isEqualTo(2);
    }

    @Test
    void aPodRelabelledToAnotherClusterMovesAndOneWithoutTheLabelIsKeptButInNoCluster() {
        cache.put("team-a/worker-a", pod("team-a", "rc", "worker-a", "40", "Running"));

        cache.put("team-a/worker-a", pod("team-a", "other", "worker-a", "41", "Running"));
        cache.put("team-a/stray", new PodBuilder().withNewMetadata().withNamespace("team-a").withName("stray")
                .withResourceVersion("42").endMetadata().build());

        assertThat(cache.pods("team-a/rc")).isEmpty();
        assertThat(cache.pods("team-a/other")).extracting(RayPod::resourceVersion).containsExactly("41");
        assertThat(cache.get("team-a/stray").getMetadata().getResourceVersion()).isEqualTo("42");
    }

    @Test
    void anUnchangedPodListedAgainStaysInItsCluster() {
        Pod pod = pod("team-a", "rc", "rc-worker-a", "40", "Running");
        cache.put("team-a/rc-worker-a", pod);

        cache.put("team-a/rc-worker-a", pod);

        assertThat(cache.pods("team-a/rc")).extracting(RayPod::name).containsExactly("rc-worker-a");
    }

    private static Pod pod(String namespace, String cluster, String name, String resourceVersion, String phase) {
        return new PodBuilder().withNewMetadata().withNamespace(namespace).withName(name).withResourceVersion(resourceVersion)
                .withCreationTimestamp("2026-12-01T10:00:00Z")
                .addToLabels(Map.of(RayLabels.CLUSTER, cluster, RayLabels.NODE_TYPE, "worker", RayLabels.GROUP, "small-group"))
                .endMetadata().withNewStatus().withPhase(phase).endStatus().build();
    }
}
