package dev.rayscale.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rayscale.sim.Workload;
import java.util.List;
import org.junit.jupiter.api.Test;

class DemoSettingsTest {

    private final Workload walkthrough = Workload.shipped("walkthrough");

    @Test
    void theClustersPolicyGoesIntoTheWorkloadAndThePlannersIntoItsSettings() {
        DemoSettings.Applied applied = DemoSettings.apply(walkthrough, List.of("upscalingMode=conservative", "idleTimeoutSeconds=30",
                "group.small-group.maxReplicas=8", "planner.packing=ECONOMICAL", "planner.decisionTtlMillis=5000"));

        assertThat(applied.workload().cluster().upscalingMode()).isEqualTo("Conservative");
        assertThat(applied.workload().cluster().idleTimeoutSeconds()).isEqualTo(30);
        assertThat(applied.workload().cluster().groups().get(0).max()).isEqualTo(8);
        assertThat(applied.workload().cluster().groups().get(0).min()).isEqualTo(walkthrough.cluster().groups().get(0).min());
        assertThat(applied.workload().events()).isEqualTo(walkthrough.events());
        assertThat(applied.plannerOptions()).containsExactly("-Drayscale.planner.packing=economical", "-Drayscale.planner.decision-ttl=5000ms");
    }

    @Test
    void whatADemoCannotSetIsAClearError() {
        assertThatThrownBy(() -> DemoSettings.apply(walkthrough, List.of("maxWorkers=3"))).hasMessageContaining("cannot be set on a demo run")
                .hasMessageContaining("what-if");
        assertThatThrownBy(() -> DemoSettings.apply(walkthrough, List.of("group.gpu.minReplicas=1"))).hasMessageContaining("no group gpu");
        assertThatThrownBy(() -> DemoSettings.apply(walkthrough, List.of("upscalingMode=sideways"))).hasMessageContaining("Conservative");
        assertThatThrownBy(() -> DemoSettings.apply(walkthrough, List.of("idleTimeoutSeconds=soon"))).hasMessageContaining("whole number");
    }
}
