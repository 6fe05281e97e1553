package dev.rayscale.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rayscale.demo.FleetDemoRun;
import dev.rayscale.events.Support;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * One Rayscale serving clusters of several Ray and KubeRay generations at once (the shipped scenario mixed-fleet,
 * docs/ray-versions.md): the supported ones scale as usual, the scale-up-only one grows and keeps its nodes, and each
 * unsupported one gets a Warning Event and is never patched; nothing breaks an invariant on any of them.
 */
class MixedFleetTest {

    @Test
    void eachClusterGetsWhatItsVersionsAllow() throws Exception {
        try (FleetDemoRun run = ClosedLoops.startFleet("mixed-fleet")) {
            assertThat(run.awaitDone()).as("every cluster did what its versions allow").isTrue();
            List<FleetDemoRun.MemberReport> reports = run.reports();

            assertThat(reports).hasSize(6).allSatisfy(report -> assertThat(report.asExpected())
                    .as("%s: %s", report.member().name(), report).isTrue());
            assertThat(reports).filteredOn(report -> report.versions().support() == Support.UNSUPPORTED).hasSize(2)
                    .allSatisfy(report -> assertThat(report.patches()).as("left alone").isZero());
            assertThat(reports).filteredOn(report -> report.member().name().equals("ray-2-5")).singleElement()
                    .satisfies(report -> assertThat(report.warnings()).contains("RayVersionUnsupported"));
            assertThat(reports).filteredOn(report -> report.member().name().equals("kuberay-1-0")).singleElement()
                    .satisfies(report -> assertThat(report.warnings()).contains("KubeRayVersionUnsupported"));
            assertThat(reports).filteredOn(report -> report.member().name().equals("ray-2-8")).singleElement().satisfies(report -> {
                assertThat(report.versions().support()).isEqualTo(Support.SCALE_UP_ONLY);
                assertThat(report.peakWorkers()).isEqualTo(15);
                assertThat(report.finalWorkers()).as("nothing removed").isEqualTo(15);
                assertThat(report.deletions()).isZero();
            });
            ClosedLoops.assertHealthy(run);
        }
    }
}
