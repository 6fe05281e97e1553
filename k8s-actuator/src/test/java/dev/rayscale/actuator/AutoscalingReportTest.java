package dev.rayscale.actuator;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rayscale.events.ClusterRef;
import dev.rayscale.events.DecisionMode;
import dev.rayscale.events.GroupTarget;
import dev.rayscale.events.PendingLaunch;
import dev.rayscale.events.PlannerInfo;
import dev.rayscale.events.ScaleDecision;
import dev.rayscale.gcs.proto.AutoscalingState;
import dev.rayscale.gcs.proto.ClusterResourceState;
import dev.rayscale.sim.RayStatus;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class AutoscalingReportTest {

    private static final Instant DECIDED = Instant.parse("2026-12-04T14:00:00Z");
    private static final Instant NOW = Instant.parse("2026-12-04T14:00:03.250Z");

    private static ScaleDecision decision(List<PendingLaunch> launches) {
        return new ScaleDecision(ScaleDecision.SCHEMA_VERSION, "d-1", new ClusterRef("ns", "rc", "uid-1"), "snap-7", 7, "41", DECIDED,
                DECIDED.plusSeconds(300), List.of(new GroupTarget("cpu", 0, 0, 4, List.of(), List.of(), List.of())), List.of(), launches,
                List.of(), DecisionMode.ACTIVE, List.of("test"), List.of(), new PlannerInfo("test", "sha256:test"));
    }

    /** Fact D50: autoscaler.proto says Unix seconds; ray status formats start_ts with datetime.fromtimestamp. */
    @Test
    void stampsInUnixSecondsThatRayStatusCanFormat() {
        AutoscalingState state = AutoscalingReport.of(decision(List.of(new PendingLaunch("cpu", 2, 0, 3, "exceeded quota"))), NOW);

        assertThat(state.getAutoscalerStateVersion()).isEqualTo(7);
        assertThat(state.getPendingInstanceRequestsList()).allSatisfy(entry -> assertThat(entry.getRequestTs()).isEqualTo(NOW.getEpochSecond()));
        assertThat(state.getFailedInstanceRequestsList()).singleElement().satisfies(failed -> {
            assertThat(failed.getStartTs()).isEqualTo(DECIDED.getEpochSecond());
            assertThat(failed.getFailedTs()).isEqualTo(NOW.getEpochSecond());
            assertThat(failed.getCount()).isEqualTo(3);
        });
        assertThat(RayStatus.v2(ClusterResourceState.getDefaultInstance(), state, NOW, null))
                .contains(" cpu, 2 launching\n", " cpu: LaunchFailed (latest_attempt: 14:00:00)\n");
    }

    /** ray status prints "<group>, N launching" with N the number of entries, not the sum of their counts (A2.9). */
    @Test
    void asksOneEntryPerNodeUpToABound() {
        AutoscalingState state = AutoscalingReport.of(decision(List.of(new PendingLaunch("cpu", 15, 0),
                new PendingLaunch("big", AutoscalingReport.MAX_LAUNCH_ENTRIES + 5, 0))), NOW);

        assertThat(state.getPendingInstanceRequestsList()).filteredOn(entry -> entry.getRayNodeTypeName().equals("cpu")).hasSize(15)
                .allSatisfy(entry -> assertThat(entry.getCount()).isEqualTo(1));
        assertThat(state.getPendingInstanceRequestsList()).filteredOn(entry -> entry.getRayNodeTypeName().equals("big"))
                .hasSize(AutoscalingReport.MAX_LAUNCH_ENTRIES);
    }
}
