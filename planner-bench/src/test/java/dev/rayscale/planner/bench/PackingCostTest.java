package dev.rayscale.planner.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class PackingCostTest {

    @Test
    void theBoundIsTheCheapestFractionalCoverOfWhatIsNeeded() {
        double[][] capacity = {{4, 0, 16}, {8, 1, 32}};
        double[] cost = {4, 30};

        assertThat(CoveringBound.of(capacity, cost, new double[] {10, 0, 0})).isCloseTo(10, within(1e-9));
        // Two GPUs need two GPU nodes, whose 16 CPUs and 64 GiB cover the rest.
        assertThat(CoveringBound.of(capacity, cost, new double[] {10, 2, 40})).isCloseTo(60, within(1e-9));
        // Beyond what the GPU nodes bring, CPU-only nodes are cheaper per CPU.
        assertThat(CoveringBound.of(capacity, cost, new double[] {24, 1, 0})).isCloseTo(30 + 16, within(1e-9));
        assertThat(CoveringBound.of(capacity, cost, new double[] {-5, 0, -1})).isZero();
    }

    @Test
    void economicalPackingNeverCostsMoreAndTheBoundIsNeverAboveEither() {
        PackingCost.Result result = PackingCost.run(40, 1000);

        assertThat(result.worseThanRay()).isZero();
        assertThat(result.unplacedDiffers()).isZero();
        assertThat(result.cases()).allSatisfy(c -> {
            assertThat(c.economicalCost()).isLessThanOrEqualTo(c.rayCost() + 1e-9);
            assertThat(c.bound()).isLessThanOrEqualTo(c.economicalCost() + 1e-6);
        });
        assertThat(result.total(PackingCost.Case::economicalCost)).isLessThan(result.total(PackingCost.Case::rayCost));

        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        PackingCost.print(result, new PrintStream(printed, true, StandardCharsets.UTF_8));
        assertThat(printed.toString(StandardCharsets.UTF_8).strip().lines().reduce((first, second) -> second).orElseThrow())
                .matches("packing: cases=40 ray_cost=\\d+ economical_cost=\\d+ lower_bound=\\d+ worse_than_ray=0");
    }
}
