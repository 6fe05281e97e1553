package dev.rayscale.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rayscale.demo.RayscaleServices.Service;
import dev.rayscale.events.Outcome;
import dev.rayscale.sim.ClusterSimulator;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The bench says of each target whether the run met it. */
class BenchReportTest {

    @Test
    void aRunWithinEveryTargetSaysSo() {
        BenchReport report = report(200, 240);

        assertThat(report.targets()).containsExactly(
                "target: end to end p99 < 250 ms: met (200 ms; over the changes acted on when first seen 200 ms)",
                "target: each service < 256 MiB resident: met (largest 240 MiB)",
                "target: nothing lost, nothing applied twice: met (lost 0, applied twice 0)");
    }

    @Test
    void aSlowChangeOrALargeServiceIsATargetNotMet() {
        BenchReport report = report(300, 256);

        assertThat(report.targets()).filteredOn(line -> line.contains("NOT MET")).hasSize(2);
        assertThat(report.targets().get(0)).startsWith("target: end to end p99 < 250 ms: NOT MET (300 ms");
        assertThat(report.targets().get(1)).isEqualTo("target: each service < 256 MiB resident: NOT MET (largest 256 MiB)");
    }

    @Test
    void theWarmUpsFiguresAreALineOfTheirOwnAndNotTheTargets() {
        Chain chain = new Chain();
        chain.changed(new Chain.Change("ns/a", 1, 500));
        chain.snapshot("a@0", new Chain.Snapshot("ns/a", 2, 550, 560));
        chain.decision("d0", new Chain.Decision("a@0", 580));
        chain.result(new Chain.Result("d0", Outcome.APPLIED, 590, 900));
        chain.measureFrom(1_000);

        BenchReport report = report(chain, 200, 240);

        assertThat(report.table()).contains("before it, 0 s of warm-up under the same load (not in the figures below): 1 changes, end to end "
                + "p50 400 ms, p99 400 ms");
        assertThat(report.targets().get(0)).startsWith("target: end to end p99 < 250 ms: met (200 ms");
        assertThat(report.table()).noneMatch(line -> line.startsWith("the simulator fell behind"));
    }

    @Test
    void aSimulatorFarBehindItsTickIsSaid() {
        BenchReport report = report(new Chain(), 200, 240, new long[] {500, 500, 500, 9_000});

        assertThat(report.table()).anyMatch(line -> line.startsWith("the simulator fell behind its model (passes 9000 ms apart at p99, against 500 ms)"));
    }

    /** One change applied {@code endToEndMs} after it was made; the actuator at {@code actuatorRssMiB}. */
    private static BenchReport report(long endToEndMs, long actuatorRssMiB) {
        return report(new Chain(), endToEndMs, actuatorRssMiB);
    }

    private static BenchReport report(Chain chain, long endToEndMs, long actuatorRssMiB) {
        return report(chain, endToEndMs, actuatorRssMiB, new long[] {500});
    }

    private static BenchReport report(Chain chain, long endToEndMs, long actuatorRssMiB, long[] simulatorPassesMs) {
        chain.changed(new Chain.Change("ns/a", 5, 1_000));
        chain.snapshot("a@1", new Chain.Snapshot("ns/a", 6, 1_050, 1_060));
        chain.decision("d1", new Chain.Decision("a@1", 1_080));
        chain.result(new Chain.Result("d1", Outcome.APPLIED, 1_090, 1_000 + endToEndMs));
        FleetBench.Settings settings = new FleetBench.Settings(1, 8, 0, 1, Duration.ZERO, Duration.ofSeconds(1), 1, 1, Duration.ofSeconds(1), 1);
        Map<Service, Usage.Figures> usage = Map.of(Service.COLLECTOR, new Usage.Figures(0.3, 200), Service.PLANNER, new Usage.Figures(0.3, 210),
                Service.ACTUATOR, new Usage.Figures(0.3, actuatorRssMiB));
        return new BenchReport(settings, 8, 1, chain.account(cluster -> false, snapshot -> false), usage, Map.of(),
                new ClusterSimulator.Invariants(0, 0, 0, 0, 0), simulatorPassesMs, 0, 0, List.of(),
                new CallFigures(List.of()));
    }
}
