package dev.rayscale.collector.assembly;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.ray.v1.RayCluster;
import io.ray.v1.RayClusterStatus;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** KubeRay's status.observedGeneration behind the spec's generation, and for how long (KubeRay's calculateStatus sets it). */
class SpecLagTest {

    private static final Instant T0 = Instant.parse("2026-12-04T12:00:00Z");
    private static final Duration PATIENCE = Duration.ofSeconds(60);

    @Test
    void aLagCountsFromWhenKubeRayWasFirstSeenBehindEvenAcrossLaterSpecChanges() {
        SpecLag first = SpecLag.of(null, cluster(2L, 1L), T0);
        SpecLag edited = SpecLag.of(first, cluster(3L, 1L), T0.plusSeconds(30));

        assertThat(first.problem(T0.plusSeconds(59), PATIENCE)).as("KubeRay has its time").isNull();
        assertThat(edited.since()).isEqualTo(T0);
        assertThat(edited.problem(T0.plusSeconds(75), PATIENCE)).contains("generation 3", "for 75 s", "status.observedGeneration is 1");
    }

    @Test
    void noLagWhenKubeRayIsUpToDateOrSaysNothing() {
        assertThat(SpecLag.of(null, cluster(2L, 2L), T0)).isNull();
        assertThat(SpecLag.of(null, cluster(2L, null), T0)).as("no status: unknown, never read as a lag").isNull();
        assertThat(SpecLag.of(null, cluster(null, 1L), T0)).isNull();
        SpecLag behind = SpecLag.of(null, cluster(2L, 1L), T0);
        assertThat(SpecLag.of(behind, cluster(2L, 2L), T0.plusSeconds(90))).as("caught up").isNull();
    }

    @Test
    void aNewObservedGenerationStartsTheCountAgain() {
        SpecLag behind = SpecLag.of(null, cluster(2L, 1L), T0);
        SpecLag again = SpecLag.of(behind, cluster(4L, 3L), T0.plusSeconds(90));

        assertThat(again.since()).isEqualTo(T0.plusSeconds(90));
        assertThat(again.problem(T0.plusSeconds(100), PATIENCE)).isNull();
    }

    private static RayCluster cluster(Long generation, Long observed) {
        RayCluster cluster = new RayCluster();
        ObjectMeta metadata = new ObjectMeta();
        metadata.setGeneration(generation);
        cluster.setMetadata(metadata);
        if (observed != null) {
            RayClusterStatus status = new RayClusterStatus();
            status.setObservedGeneration(observed);
            cluster.setStatus(status);
        }
        return cluster;
    }
}
