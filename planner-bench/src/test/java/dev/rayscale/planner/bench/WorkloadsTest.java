package dev.rayscale.planner.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rayscale.events.ClusterSnapshot;
import dev.rayscale.events.ScaleDecision;
import dev.rayscale.events.TaskDemand;
import dev.rayscale.planner.core.Planner;
import dev.rayscale.planner.core.PlannerSettings;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The benchmark measures what it claims: inputs of the stated sizes that make the planner work. */
class WorkloadsTest {

    @ParameterizedTest
    @ValueSource(strings = {"100n-1k", "1kn-10k", "2kn-100k", "100n-1kpg"})
    void workloadsHaveTheirSizeAndNeedNewNodes(String name) {
        ClusterSnapshot snapshot = Workloads.named(name);
        ScaleDecision decision = new Planner(PlannerSettings.defaults("test")).plan(snapshot);

        assertThat(snapshot.workerGroups()).hasSize(5);
        long demands = snapshot.demand().tasks().stream().mapToLong(TaskDemand::count).sum();
        assertThat(demands + snapshot.demand().gangs().size()).isEqualTo(switch (name) {
            case "100n-1k" -> 1_000;
            case "1kn-10k" -> 10_000;
            case "2kn-100k" -> 100_000;
            default -> 1_000;
        });
        assertThat(decision.launches()).as("the demand exceeds the free capacity").isNotEmpty();
    }
}
