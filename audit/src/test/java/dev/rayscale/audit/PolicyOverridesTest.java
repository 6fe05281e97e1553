package dev.rayscale.audit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rayscale.events.ClusterSnapshot;
import dev.rayscale.events.Packing;
import dev.rayscale.events.Topics;
import dev.rayscale.events.UpscalingMode;
import dev.rayscale.events.codec.EventCodec;
import dev.rayscale.planner.core.PlannerSettings;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class PolicyOverridesTest {

    private final ClusterSnapshot snapshot = EventCodec.SNAPSHOTS.decode(
            Recording.golden().of(Topics.SNAPSHOTS).get(0).get("data"));

    @Test
    void setsThePolicyAGroupAndThePlannerDefaultsByTheirEventNames() {
        PolicyOverrides overrides = PolicyOverrides.parse(List.of("upscalingMode=conservative", "idleTimeoutSeconds=30",
                "group.small-group.maxReplicas=4", "planner.decisionTtlMillis=5000", "planner.packing=economical"));

        ClusterSnapshot changed = overrides.apply(snapshot);
        PlannerSettings settings = overrides.apply(PlannerSettings.defaults("v"));

        assertThat(changed.policy().upscalingMode()).isEqualTo(UpscalingMode.CONSERVATIVE);
        assertThat(changed.policy().idleTimeoutSeconds()).isEqualTo(30);
        assertThat(changed.workerGroups().get(0).maxReplicas()).isEqualTo(4);
        assertThat(changed.nodes()).isEqualTo(snapshot.nodes());
        assertThat(settings.decisionTtl()).isEqualTo(Duration.ofSeconds(5));
        assertThat(settings.packing()).isEqualTo(Packing.ECONOMICAL);
        assertThat(settings.version()).isEqualTo("v");
    }

    @Test
    void everyGroupWithAStar() {
        assertThat(PolicyOverrides.parse(List.of("group.*.minReplicas=2")).apply(snapshot).workerGroups())
                .allSatisfy(group -> assertThat(group.minReplicas()).isEqualTo(2));
    }

    @Test
    void anUnknownKeyOrAnImpossibleValueIsAClearError() {
        assertThatThrownBy(() -> PolicyOverrides.parse(List.of("idleTimeout=30"))).hasMessageContaining("unknown setting 'idleTimeout'")
                .hasMessageContaining("idleTimeoutSeconds");
        assertThatThrownBy(() -> PolicyOverrides.parse(List.of("maxWorkers"))).hasMessageContaining("is not KEY=VALUE");
        assertThatThrownBy(() -> PolicyOverrides.parse(List.of("upscalingMode=sideways")).apply(snapshot))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("SIDEWAYS").hasMessageContaining("CONSERVATIVE");
        assertThatThrownBy(() -> PolicyOverrides.parse(List.of("planner.maxPendingLaunches=0")).apply(PlannerSettings.defaults("v")))
                .hasMessageContaining("maxPendingLaunches");
    }
}
