package dev.rayscale.planner;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rayscale.events.ReasonCode;
import dev.rayscale.events.ScaleDecision;
import dev.rayscale.events.codec.EventCodec;
import dev.rayscale.events.codec.EventSchemas;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** Decisions are counted by their mode and reason codes, never by their text. */
class PlannerMetricsTest {

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final PlannerMetrics metrics = new PlannerMetrics(registry);

    @Test
    void aDecisionHeldForAnUnreadableGcsCountsAsHoldWithItsReasonCodes() {
        metrics.published(example("gcs-unavailable"));

        assertThat(registry.counter("rayscale.planner.decisions", "cluster", "ml-team/etl", "kind", "hold").count()).isEqualTo(1);
        assertThat(reasons("gcs_unreadable")).isEqualTo(1);
        assertThat(reasons("replicas_changed")).isEqualTo(1);
        assertThat(reasons("idle_removed")).isZero();
    }

    @Test
    void anActiveDecisionCountsByWhatItChanges() {
        ScaleDecision decision = example("walkthrough");

        assertThat(PlannerMetrics.kind(decision)).isEqualTo("scale_up");
    }

    @Test
    void everyReasonCodeIsExposedFromTheStart() {
        assertThat(Arrays.stream(ReasonCode.values()).map(code -> registry.find("rayscale.planner.decision.reasons")
                .tag("code", code.name().toLowerCase()).counter())).doesNotContainNull();
    }

    private double reasons(String code) {
        return registry.counter("rayscale.planner.decision.reasons", "code", code).count();
    }

    private static ScaleDecision example(String name) {
        return EventCodec.DECISIONS.decode(EventSchemas.readResource("examples/scale-decision/" + name + ".json"));
    }
}
