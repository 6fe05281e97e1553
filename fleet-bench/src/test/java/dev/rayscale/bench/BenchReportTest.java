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
                "target: the simulator keeps its model, a cluster's passes p99 < 1000 ms apart (its tick 500 ms): met (500 ms)",
                "target: Rayscale's own time, snapshot published -> patch sent, p99 < 250 ms: met (40 ms over 1 patches)",
                "target: reaction, the GCS pull that carries a change -> patch applied, p99 < 2000 ms: met (200 ms over the 1 changes acted "
                        + "on when first seen)",
                "target: the three services' CPU < 1 core per 1,000 clusters: not judged below 1,000 clusters (0.90 cores for 1)",
                "target: each service < 256 MiB resident: met (largest 240 MiB)",
                "target: nothing lost, nothing applied twice: met (lost 0, applied twice 0)");
        assertThat(report.missed()).isEmpty();
        assertThat(report.line()).contains(" own_p99_ms=40 reaction_p99_ms=200 cpu_cores=0.90 simulator_p99_ms=500 lost=0 applied_twice=0");
    }

    @Test
    void eachMissedTargetIsNamedByItsStage() {
        BenchReport report = report(patched(), 3_000, 256, new long[] {500, 500, 500, 9_000}, 1, 0.3);

        assertThat(report.missed()).containsExactly("simulator", "reaction", "rss");
        assertThat(report.targets().get(2)).startsWith("target: reaction, the GCS pull that carries a change -> patch applied, p99 < 2000 ms: "
                + "NOT MET (3000 ms");
        assertThat(report.targets().get(4)).isEqualTo("target: each service < 256 MiB resident: NOT MET (largest 256 MiB)");
    }

    @Test
    void theCpuTargetIsJudgedPerThousandClustersFromAThousandOn() {
        assertThat(report(patched(), 200, 240, new long[] {500}, 1_000, 0.3).targets().get(3))
                .isEqualTo("target: the three services' CPU < 1 core per 1,000 clusters: met (0.90 cores for 1,000 clusters)");
        assertThat(report(patched(), 200, 240, new long[] {500}, 2_000, 0.7).missed()).containsExactly("cpu");
        assertThat(report(patched(), 200, 240, new long[] {500}, 999, 0.7).missed()).isEmpty();
    }

    @Test
    void rayscalesOwnTimeEndsAtTheFirstPatchSentWhileItsDecisionWasApplied() {
        Chain chain = new Chain();
        // Before the actuator took the decision up: another decision's patch, not this one's.
        chain.patchSent("ns/a", 1_070);
        chain.patchSent("ns/a", 1_150);
        chain.patchSent("ns/a", 1_180);

        BenchReport report = report(chain, 200, 240, new long[] {500}, 1, 0.3);

        assertThat(report.account().ownMs()).containsExactly(90L);
    }

    @Test
    void theWarmUpsFiguresAreALineOfTheirOwnAndNotTheTargets() {
        Chain chain = new Chain();
        chain.changed(new Chain.Change("ns/a", 1, 500));
        chain.snapshot("a@0", new Chain.Snapshot("ns/a", 2, 550, 560));
        chain.decision("d0", new Chain.Decision("a@0", 580));
        chain.result(new Chain.Result("d0", Outcome.APPLIED, 590, 900));
        chain.measureFrom(1_000);
        chain.patchSent("ns/a", 1_100);

        BenchReport report = report(chain, 200, 240);

        assertThat(report.table()).contains("before it, 0 s of warm-up under the same load (not in the figures below): 1 changes, end to end "
                + "p50 400 ms, p99 400 ms");
        assertThat(report.missed()).isEmpty();
        assertThat(report.table()).noneMatch(line -> line.startsWith("the simulator fell behind"));
    }

    @Test
    void aSimulatorFarBehindItsTickIsSaid() {
        BenchReport report = report(new Chain(), 200, 240, new long[] {500, 500, 500, 9_000}, 1, 0.3);

        assertThat(report.table()).anyMatch(line -> line.startsWith("the simulator fell behind its model (passes 9000 ms apart at p99, against 500 ms)"));
    }

    /** One change applied {@code endToEndMs} after it was made, its patch sent at 1,100 ms; the actuator at {@code actuatorRssMiB}. */
    private static BenchReport report(long endToEndMs, long actuatorRssMiB) {
        return report(patched(), endToEndMs, actuatorRssMiB);
    }

    /** A chain in which the API server received a patch of the cluster at 1,100 ms. */
    private static Chain patched() {
        Chain chain = new Chain();
        chain.patchSent("ns/a", 1_100);
        return chain;
    }

    private static BenchReport report(Chain chain, long endToEndMs, long actuatorRssMiB) {
        return report(chain, endToEndMs, actuatorRssMiB, new long[] {500}, 1, 0.3);
    }

    /** Each service using {@code coresEach}. */
    private static BenchReport report(Chain chain, long endToEndMs, long actuatorRssMiB, long[] simulatorPassesMs, int clusters, double coresEach) {
        chain.changed(new Chain.Change("ns/a", 5, 1_000));
        chain.snapshot("a@1", new Chain.Snapshot("ns/a", 6, 1_050, 1_060));
        chain.decision("d1", new Chain.Decision("a@1", 1_080));
        chain.result(new Chain.Result("d1", Outcome.APPLIED, 1_090, 1_000 + endToEndMs));
        FleetBench.Settings settings = new FleetBench.Settings(clusters, 8, 0, 1, Duration.ZERO, Duration.ofSeconds(1), 1, 1, Duration.ofSeconds(1), 1);
        Map<Service, Usage.Figures> usage = Map.of(Service.COLLECTOR, new Usage.Figures(coresEach, 200), Service.PLANNER,
                new Usage.Figures(coresEach, 210), Service.ACTUATOR, new Usage.Figures(coresEach, actuatorRssMiB));
        return new BenchReport(settings, 8, 1, chain.account(cluster -> false, snapshot -> false), usage, Map.of(),
                new ClusterSimulator.Invariants(0, 0, 0, 0, 0), simulatorPassesMs, 0, 0, List.of(),
                new CallFigures(List.of()), List.of());
    }
}
