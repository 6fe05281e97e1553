package dev.rayscale.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rayscale.demo.Expectation;
import dev.rayscale.demo.FleetDemoRun;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * One Rayscale shared by two ordinary teams and a hostile one (the shipped scenario hostile-tenant, docs/trust-model.md):
 * the hostile cluster's values are refused where they are read and it is held, with a Warning Event naming the field and
 * its bound; the ordinary clusters are served as usual, and no service logs an error or restarts.
 */
class HostileTenantTest {

    @Test
    void theHostileClusterIsHeldAndTheOthersServedAsUsual() throws Exception {
        try (FleetDemoRun run = ClosedLoops.startFleet("hostile-tenant")) {
            assertThat(run.awaitDone()).as("every cluster got what its owner's values allow").isTrue();
            List<FleetDemoRun.MemberReport> reports = run.reports();

            assertThat(reports).hasSize(3).allSatisfy(report -> assertThat(report.asExpected())
                    .as("%s: %s", report.member().name(), report).isTrue());
            assertThat(reports).filteredOn(report -> report.member().expect() == Expectation.FULL).hasSize(2)
                    .allSatisfy(report -> assertThat(report.patches()).as("served").isPositive());
            assertThat(reports).filteredOn(report -> report.member().name().equals("intruder")).singleElement().satisfies(report -> {
                assertThat(report.patches()).isZero();
                assertThat(report.peakWorkers()).isZero();
                assertThat(report.warnings()).contains("InvalidRayClusterForRayscale");
            });
            ClosedLoops.assertHealthy(run);
        }
    }
}
