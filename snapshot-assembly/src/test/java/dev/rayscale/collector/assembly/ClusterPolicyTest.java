package dev.rayscale.collector.assembly;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rayscale.events.Packing;
import dev.rayscale.testsupport.RayClusters;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.PodTemplateSpecBuilder;
import io.ray.v1.RayCluster;
import java.math.BigDecimal;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ClusterPolicyTest {

    @Test
    void packingComesFromTheClustersAnnotationAndIsAbsentWhenNotSet() {
        RayCluster cluster = RayClusters.walkthrough("ns", "c");
        assertThat(ClusterPolicy.of(cluster).packing()).isNull();

        cluster.getMetadata().getAnnotations().put(ClusterPolicy.PACKING, "Economical");
        assertThat(ClusterPolicy.of(cluster).packing()).isEqualTo(Packing.ECONOMICAL);

        cluster.getMetadata().getAnnotations().put(ClusterPolicy.PACKING, "cheapest");
        assertThatThrownBy(() -> ClusterPolicy.of(cluster))
                .hasMessage("annotation rayscale.dev/packing='cheapest' is not valid: expected one of [ray, economical]");
    }

    @Test
    void aGroupsNodeCostComesFromItsPodTemplateAndMustBePositive() {
        assertThat(ClusterPolicy.nodeCost(RayClusters.template(Map.of("cpu", "1")))).isNull();
        assertThat(ClusterPolicy.nodeCost(costing("3.25"))).isEqualByComparingTo(new BigDecimal("3.25"));
        assertThatThrownBy(() -> ClusterPolicy.nodeCost(costing("0")))
                .hasMessage("annotation rayscale.dev/node-cost='0' is not valid: a node's cost must be positive");
        assertThatThrownBy(() -> ClusterPolicy.nodeCost(costing("$3"))).hasMessageStartingWith("annotation rayscale.dev/node-cost='$3' is not valid");
    }

    /** Issue 50: one shared planner serves every tenant, so the numbers that size its work are bounded where they are read. */
    @Test
    void theAnnotationsThatSizeRayscalesWorkAreBoundedAndQuotedShort() {
        RayCluster cluster = RayClusters.walkthrough("ns", "c");
        cluster.getMetadata().getAnnotations().put(ClusterPolicy.MAX_PENDING_LAUNCHES, "2000000000");
        assertThatThrownBy(() -> ClusterPolicy.of(cluster))
                .hasMessage("annotation rayscale.dev/max-pending-launches='2000000000' is not valid: must be from 0 to 10000");
        cluster.getMetadata().getAnnotations().put(ClusterPolicy.MAX_PENDING_LAUNCHES, "10000");
        assertThat(ClusterPolicy.of(cluster).maxPendingLaunches()).isEqualTo(10_000);

        cluster.getMetadata().getAnnotations().put(ClusterPolicy.MAX_WORKERS, "-1");
        assertThatThrownBy(() -> ClusterPolicy.of(cluster)).hasMessage("annotation rayscale.dev/max-workers='-1' is not valid: must be from 0 to 100000");
        cluster.getMetadata().getAnnotations().remove(ClusterPolicy.MAX_WORKERS);

        cluster.getMetadata().getAnnotations().put(ClusterPolicy.UPSCALING_SPEED, "1e99999999");
        assertThatThrownBy(() -> ClusterPolicy.of(cluster))
                .hasMessage("annotation rayscale.dev/upscaling-speed='1e99999999' is not valid: must be above 0 and at most 1000");
        cluster.getMetadata().getAnnotations().put(ClusterPolicy.UPSCALING_SPEED, "7".repeat(100_000));
        assertThatThrownBy(() -> ClusterPolicy.of(cluster)).hasMessage("annotation rayscale.dev/upscaling-speed='" + "7".repeat(32)
                + "...' (100000 characters) is longer than 64 characters");
        cluster.getMetadata().getAnnotations().remove(ClusterPolicy.UPSCALING_SPEED);

        cluster.getMetadata().getAnnotations().put(ClusterPolicy.PENDING_POD_PATIENCE, "9223372036854775807");
        assertThatThrownBy(() -> ClusterPolicy.of(cluster)).hasMessageEndingWith("is not valid: must be from 0 to 86400");
    }

    private static PodTemplateSpec costing(String cost) {
        return new PodTemplateSpecBuilder(RayClusters.template(Map.of("cpu", "1"))).editOrNewMetadata()
                .addToAnnotations(ClusterPolicy.NODE_COST, cost).endMetadata().build();
    }
}
