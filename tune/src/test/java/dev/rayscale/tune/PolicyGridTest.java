package dev.rayscale.tune;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class PolicyGridTest {

    @Test
    void everyCombinationOfTheValuesIsAPolicy() {
        List<PolicyGrid.Policy> grid = PolicyGrid.of(List.of("idleTimeoutSeconds=30,120", "upscalingMode=CONSERVATIVE, DEFAULT",
                "group.*.minReplicas=0,1"));
        assertThat(grid).extracting(PolicyGrid.Policy::describe).hasSize(8).contains(
                "idleTimeoutSeconds=30,upscalingMode=CONSERVATIVE,group.*.minReplicas=0",
                "idleTimeoutSeconds=120,upscalingMode=DEFAULT,group.*.minReplicas=1");
    }

    @Test
    void aKeyGivenTwiceHasBothItsValues() {
        assertThat(PolicyGrid.of(List.of("idleTimeoutSeconds=30", "idleTimeoutSeconds=60"))).hasSize(2);
    }

    @Test
    void anUnknownKeyOrAnEmptyValueIsRefusedByName() {
        assertThatThrownBy(() -> PolicyGrid.of(List.of("idleTimeout=30"))).hasMessageContaining("unknown setting 'idleTimeout'");
        assertThatThrownBy(() -> PolicyGrid.of(List.of("idleTimeoutSeconds=30,,60"))).hasMessageContaining("empty value");
    }

    @Test
    void theDefaultGridTriesTheIdleTimeoutAndTheUpscalingMode() {
        assertThat(PolicyGrid.of(PolicyGrid.DEFAULT)).hasSize(10);
    }

    @Test
    void anObjectiveIsNamedOrAWaitBudget() {
        assertThat(Objective.of("WAIT", null).kind()).isEqualTo(Objective.Kind.WAIT);
        assertThat(Objective.of("balanced", 30.0).kind()).isEqualTo(Objective.Kind.BUDGET);
        assertThatThrownBy(() -> Objective.of("fast", null)).hasMessageContaining("cost, wait or balanced");
        assertThatThrownBy(() -> Objective.of("budget", null)).hasMessageContaining("cost, wait or balanced");
        assertThatThrownBy(() -> Objective.of("cost", -1.0)).hasMessageContaining("must not be negative");
    }
}
