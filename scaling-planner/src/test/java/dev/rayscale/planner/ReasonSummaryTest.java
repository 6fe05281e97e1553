package dev.rayscale.planner;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class ReasonSummaryTest {

    @Test
    void aFewReasonsAreLoggedWhole() {
        assertThat(SnapshotConsumer.summary(List.of("a: 0 -> 1", "b: 2 -> 3"))).isEqualTo("a: 0 -> 1; b: 2 -> 3");
    }

    @Test
    void thousandsOfReasonsAreLoggedAsTheFirstFewAndACount() {
        List<String> reasons = IntStream.range(0, 99_000).mapToObj(i -> "shape " + i + " fits no group").toList();

        assertThat(SnapshotConsumer.summary(reasons))
                .isEqualTo("shape 0 fits no group; shape 1 fits no group; shape 2 fits no group; shape 3 fits no group; "
                        + "shape 4 fits no group; and 98995 more (see the decision)");
    }
}
