package dev.rayscale.tune;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rayscale.audit.PolicyOverrides;
import java.util.List;
import org.junit.jupiter.api.Test;

class OutcomeTest {

    private static Outcome outcome(String name, double cost, double waitP95) {
        return new Outcome(new PolicyGrid.Policy(List.of(name), PolicyOverrides.parse(List.of())),
                new Figures(cost * 3600, cost, 0, waitP95, waitP95, 10, 0, 0));
    }

    private static final Outcome CHEAP_SLOW = outcome("idleTimeoutSeconds=15", 1, 100);
    private static final Outcome DEAR_FAST = outcome("idleTimeoutSeconds=300", 3, 0);
    private static final Outcome MIDDLE = outcome("idleTimeoutSeconds=60", 1.5, 30);
    private static final Outcome WORSE = outcome("idleTimeoutSeconds=120", 3, 40);

    @Test
    void anOutcomeDominatesWhatItBeatsOnOneAxisAndTiesOrBeatsOnTheOther() {
        assertThat(MIDDLE.dominates(WORSE)).isTrue();
        assertThat(DEAR_FAST.dominates(WORSE)).isTrue();
        assertThat(CHEAP_SLOW.dominates(MIDDLE)).isFalse();
        assertThat(MIDDLE.dominates(MIDDLE)).isFalse();
    }

    @Test
    void eachObjectivePicksItsEndOfTheFrontOrTheBalance() {
        List<Outcome> front = List.of(CHEAP_SLOW, MIDDLE, DEAR_FAST);
        Figures recorded = MIDDLE.figures();
        assertThat(Objective.of("cost", null).pick(front, recorded, 10)).contains(CHEAP_SLOW);
        assertThat(Objective.of("wait", null).pick(front, recorded, 10)).contains(DEAR_FAST);
        // Against the recorded 1.5 and 30 s: 1/1.5 + 100/30 = 4.0, 1 + 1 = 2.0, 3/1.5 + 0 = 2.0; a tie goes to the cheaper.
        assertThat(Objective.of("balanced", null).pick(front, recorded, 10)).contains(MIDDLE);
        assertThat(Objective.of("cost", 30.0).pick(front, recorded, 10)).contains(MIDDLE);
        assertThat(Objective.of("cost", 5.0).pick(List.of(CHEAP_SLOW), recorded, 10)).isEmpty();
    }
}
