package dev.rayscale.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rayscale.bench.BenchReport;
import dev.rayscale.bench.Chain;
import dev.rayscale.bench.FleetBench;
import dev.rayscale.testsupport.TestKafka;
import java.nio.file.Files;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * {@code ./rayscale bench} in small: a fleet of simulated clusters, two planners and two actuators as
 * processes sharing the topics, one of each stopped and started again halfway. Every change of demand
 * must reach a patch, nothing may be applied twice, and the figures must be the ones measured.
 */
class FleetBenchTest {

    @Test
    void aFleetGoesThroughEndToEndAcrossARebalanceWithNothingLostOrAppliedTwice() throws Exception {
        FleetBench.Settings settings = new FleetBench.Settings(12, 8, 1, 2, Duration.ofSeconds(20), Duration.ofSeconds(30), 2, 2, Duration.ofMillis(250), 7);

        BenchReport report = FleetBench.run(settings, TestKafka.bootstrapServers(), ClosedLoops.ROOT, Files.createTempDirectory("rayscale-bench"),
                System.out::println);
        report.table().forEach(System.out::println);

        Chain.Account account = report.account();
        assertThat(account.latencies()).as("changes made").hasSizeGreaterThan(20);
        // A change made near the end may still wait, on purpose, for its cluster's launches when the bench stops: not lost.
        assertThat(account.incomplete()).as("changes no patch acted on, but for those waiting for their cluster's launches")
                .isEqualTo(account.waitingForLaunches());
        assertThat(account.unanswered()).as("decisions without a result").isZero();
        assertThat(account.appliedTwice()).as("decisions applied twice").isZero();
        assertThat(account.actedWhenSeen()).as("changes acted on when first seen (snapshots without a decision planned again)").isPositive();
        // The changes waiting for their cluster's launches have no decision or patch to order.
        assertThat(account.latencies()).filteredOn(Chain.Latency::complete).allSatisfy(latency -> {
            assertThat(latency.snapshotMs()).isPositive().isLessThanOrEqualTo(latency.decisionMs());
            assertThat(latency.decisionMs()).isLessThanOrEqualTo(latency.appliedMs());
            assertThat(latency.pipelineMs()).isLessThanOrEqualTo(latency.appliedMs());
        });
        assertThat(report.rebalanced()).containsExactly("scaling-planner-2", "k8s-actuator-2");
        assertThat(report.usage()).allSatisfy((service, usage) -> {
            assertThat(usage.cores()).as(service + " CPU").isPositive();
            assertThat(usage.rssMiB()).as(service + " memory").isPositive();
        });
        assertThat(report.invariants().held()).as("no busy pod deleted, no GCS crashed, no pod the operator chose").isTrue();
        assertThat(report.unreadable()).isZero();
        assertThat(report.errorsLogged()).as("ERROR lines the services logged").isZero();
        assertThat(report.clean()).isTrue();
        assertThat(account.ownMs()).as("Rayscale's own time, up to each applied decision's patch").isNotEmpty();
        // Each instance's share of its service's records and CPU: both planners and both actuators answered from their metrics.
        assertThat(report.shares()).extracting(share -> share.member().name())
                .containsExactly("scaling-planner", "scaling-planner-2", "k8s-actuator", "k8s-actuator-2");
        assertThat(report.shares()).allSatisfy(share -> assertThat(share.records()).as(share.member().name() + " records").isNotNegative());
        assertThat(report.shares()).filteredOn(share -> share.member().copy() == 1).allSatisfy(share ->
                assertThat(share.records()).as(share.member().name() + " records").isPositive());
        assertThat(report.line()).matches("bench: clusters=12 changes=\\d+ e2e_p50_ms=\\d+ e2e_p99_ms=\\d+ pipeline_p99_ms=\\d+ acted_e2e_p50_ms=\\d+ "
                + "acted_e2e_p99_ms=\\d+ held_when_seen=\\d+ collector_rss_mib=\\d+ planner_rss_mib=\\d+ actuator_rss_mib=\\d+ own_p99_ms=\\d+ "
                + "reaction_p99_ms=\\d+ cpu_cores=\\d+\\.\\d\\d simulator_p99_ms=\\d+ lost=0 applied_twice=0");
    }
}
