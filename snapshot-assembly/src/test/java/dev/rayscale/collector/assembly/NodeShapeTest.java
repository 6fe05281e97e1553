package dev.rayscale.collector.assembly;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rayscale.events.Resources;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.PodTemplateSpecBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

class NodeShapeTest {

    @Test
    void cpuFromNumCpusElseLimitsElseRequestsRoundedUp() {
        assertThat(shape(Map.of("num-cpus", "0"), template(Map.of("cpu", "2"), Map.of())).resources().has("CPU")).isFalse();
        assertThat(cpu(shape(Map.of("num-cpus", "3"), template(Map.of("cpu", "2"), Map.of())))).isEqualTo("3");
        assertThat(cpu(shape(Map.of(), template(Map.of("cpu", "2"), Map.of("cpu", "1"))))).isEqualTo("2");
        assertThat(cpu(shape(Map.of(), template(Map.of(), Map.of("cpu", "500m"))))).isEqualTo("1");
        assertThat(cpu(shape(Map.of(), template(Map.of("cpu", "1500m"), Map.of())))).isEqualTo("2");
    }

    @Test
    void gpuFromAnyLimitEndingInGpu() {
        NodeShape nvidia = shape(Map.of(), template(Map.of("cpu", "8", "nvidia.com/gpu", "2"), Map.of()));
        assertThat(nvidia.resources()).isEqualTo(Resources.of("CPU", "8", "GPU", "2"));

        NodeShape amdRequest = shape(Map.of(), template(Map.of("cpu", "8"), Map.of("amd.com/gpu", "1")));
        assertThat(amdRequest.resources().get("GPU")).isEqualTo(dev.rayscale.events.Quantity.ONE);

        NodeShape param = shape(Map.of("num-gpus", "4"), template(Map.of("nvidia.com/gpu", "2"), Map.of()));
        assertThat(param.resources().get("GPU")).isEqualTo(dev.rayscale.events.Quantity.of(4));
    }

    @Test
    void tpuAndMemoryInBytes() {
        NodeShape tpu = shape(Map.of(), template(Map.of("cpu", "8", "google.com/tpu", "4", "memory", "40Gi"), Map.of()));

        assertThat(tpu.resources()).isEqualTo(Resources.of("CPU", "8", "TPU", "4", "memory", "42949672960"));
        assertThat(shape(Map.of("memory", "1000"), template(Map.of("memory", "1Gi"), Map.of())).resources().get("memory").toString())
                .isEqualTo("1000");
    }

    @Test
    void customResourcesFromTheShellQuotedJsonParameter() {
        NodeShape custom = shape(Map.of("resources", "'\"{\\\"accel_x\\\": 1, \\\"disk\\\": 2.5}\"'"), template(Map.of("cpu", "4"), Map.of()));

        assertThat(custom.resources()).isEqualTo(Resources.of("CPU", "4", "accel_x", "1", "disk", "2.5"));
    }

    @Test
    void groupResourcesAndLabelsFieldsWin() {
        NodeShape shape = NodeShape.of("std", Map.of("num-cpus", "4", "labels", "tier=std,zone=a"), template(Map.of(), Map.of()),
                Map.of("CPU", "2", "special", "3"), Map.of("zone", "b"));

        assertThat(shape.resources()).isEqualTo(Resources.of("CPU", "2", "special", "3"));
        assertThat(shape.labels()).containsExactlyInAnyOrderEntriesOf(Map.of("tier", "std", "zone", "b", "ray.io/node-group", "std"));
    }

    /**
     * Fact D53: Ray labels each node from its environment (_get_default_labels): ray.io/node-group from RAY_NODE_TYPE_NAME,
     * which KubeRay sets to the group's name, the market, region and zone from RAY_NODE_MARKET_TYPE, RAY_NODE_REGION and
     * RAY_NODE_ZONE when set; labels the user gives win (_resolve_labels).
     */
    @Test
    void raysDefaultLabelsAsARayNodeOfTheGroupWouldCarryThem() {
        PodTemplateSpec spot = new PodTemplateSpecBuilder().withNewSpec().addNewContainer().withName("ray")
                .addNewEnv().withName("RAY_NODE_MARKET_TYPE").withValue("SPOT").endEnv()
                .addNewEnv().withName("RAY_NODE_ZONE").withValue("us-east1-b").endEnv().endContainer().endSpec().build();

        assertThat(NodeShape.of("gpu", Map.of(), spot, null, null).labels()).containsExactlyInAnyOrderEntriesOf(Map.of(
                "ray.io/node-group", "gpu", "ray.io/market-type", "SPOT", "ray.io/availability-zone", "us-east1-b"));
        assertThat(NodeShape.of("gpu", Map.of("labels", "ray.io/market-type=ON_DEMAND"), spot, null, null).labels())
                .containsEntry("ray.io/market-type", "ON_DEMAND");
    }

    @Test
    void labelsAlsoAsJson() {
        assertThat(NodeShape.parseLabels("'{\"market\": \"spot\"}'")).containsExactlyEntriesOf(Map.of("market", "spot"));
        assertThatThrownBy(() -> NodeShape.parseLabels("nonsense")).hasMessageContaining("is not key=value");
    }

    /**
     * Issue 50: a tenant's {@code 1e99999999} in rayStartParams, a container's limits or the group's resources ran the
     * shared collector out of memory. Each is refused at once with a short error, which holds this cluster only.
     */
    @Test
    @Timeout(30)
    void aTenantsEndlessAmountIsRefusedAtOnceWherePodsOrParametersGiveIt() {
        assertThatThrownBy(() -> shape(Map.of("num-cpus", "1e99999999"), template(Map.of(), Map.of())))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("resource amount '1E+99999999' is out of range");
        assertThatThrownBy(() -> shape(Map.of(), template(Map.of("cpu", "1e99999999"), Map.of()))).hasMessageContaining("out of range");
        assertThatThrownBy(() -> shape(Map.of(), template(Map.of("memory", "1" + "0".repeat(5_000)), Map.of())))
                .hasMessageContaining("(5001 characters) is longer than 64 characters");
        assertThatThrownBy(() -> NodeShape.of("g", Map.of(), template(Map.of(), Map.of()), Map.of("CPU", "1e99999999"), null))
                .hasMessageContaining("out of range");
        assertThat(shape(Map.of(), template(Map.of("cpu", "1e-99999999"), Map.of())).resources().has("CPU")).isFalse();
    }

    private static NodeShape shape(Map<String, String> params, PodTemplateSpec template) {
        return NodeShape.of("group", params, template, null, null);
    }

    private static String cpu(NodeShape shape) {
        return shape.resources().get("CPU").toString();
    }

    static PodTemplateSpec template(Map<String, String> limits, Map<String, String> requests) {
        return new PodTemplateSpecBuilder().withNewSpec().addNewContainer().withName("ray").withNewResources()
                .withLimits(quantities(limits)).withRequests(quantities(requests))
                .endResources().endContainer().endSpec().build();
    }

    private static Map<String, Quantity> quantities(Map<String, String> values) {
        Map<String, Quantity> quantities = new HashMap<>();
        values.forEach((name, value) -> quantities.put(name, new Quantity(value)));
        return quantities;
    }
}
