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

    private static PodTemplateSpec costing(String cost) {
        return new PodTemplateSpecBuilder(RayClusters.template(Map.of("cpu", "1"))).editOrNewMetadata()
                .addToAnnotations(ClusterPolicy.NODE_COST, cost).endMetadata().build();
    }
}
