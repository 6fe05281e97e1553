package dev.rayscale.tune;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.rayscale.events.Resources;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class FiguresTest {

    private static final DemandKey ONE_CPU = DemandKey.task(Resources.of("CPU", "1"), List.of());

    private static Moment at(double seconds, long pending, int workers, int replicas, int newPods) {
        return new Moment(seconds, true, pending == 0 ? Map.of() : Map.of(ONE_CPU, pending), Map.of(), Map.of(), List.of(),
                workers == 0 ? Map.of() : Map.of("g", workers), Map.of("g", replicas), newPods);
    }

    @Test
    void pendingWorkLeavesFirstInFirstOut() {
        // 4 arrive at 0; 2 leave at 10 (the first two: waited 10); 2 more arrive at 20; all 4 leave at 30: the two left of the
        // first arrivals waited 30, the later two 10.
        Figures figures = Figures.of(List.of(at(0, 4, 0, 0, 0), at(10, 2, 0, 0, 0), at(20, 4, 0, 0, 0), at(30, 0, 0, 0, 0)), 1, 6,
                Map.of());
        assertThat(figures.tasks()).isEqualTo(6);
        assertThat(figures.waitMax()).isEqualTo(30);
        assertThat(figures.waitP50()).isEqualTo(10);
        assertThat(figures.waitP95()).isEqualTo(30);
    }

    @Test
    void workNeverSeenPendingWaitedNothing() {
        // 2 seen waiting 10 s of 20 tasks given: 18 waited 0, so the median is 0 and the 95th percentile is the 19th task's 10 s.
        Figures figures = Figures.of(List.of(at(0, 2, 0, 0, 0), at(10, 0, 0, 0, 0)), 1, 20, Map.of());
        assertThat(figures.waitP50()).isZero();
        assertThat(figures.waitP95()).isEqualTo(10);
    }

    @Test
    void workStillPendingAtTheEndWaitedUntilTheEnd() {
        Figures figures = Figures.of(List.of(at(0, 1, 0, 0, 0), at(50, 1, 0, 0, 0)), 1, 1, Map.of());
        assertThat(figures.waitMax()).isEqualTo(50);
    }

    @Test
    void workersAreHeldUntilTheNextSnapshotAndCostTheirGroupsRatePerHour() {
        Figures figures = Figures.of(List.of(at(0, 0, 2, 2, 2), at(100, 0, 4, 4, 2), at(200, 0, 0, 0, 0)), 1, 0, Map.of("g", 3.6));
        assertThat(figures.workerSeconds()).isEqualTo(2 * 100 + 4 * 100);
        assertThat(figures.cost()).isCloseTo(600 * 3.6 / 3600, within(1e-9));
        assertThat(figures.coldStarts()).isEqualTo(4);
        assertThat(figures.scaleEvents()).isEqualTo(2);
    }

    @Test
    void theClockRateTurnsTheRecordingsSecondsIntoTheClusters() {
        Figures figures = Figures.of(List.of(at(0, 1, 1, 1, 0), at(1, 0, 1, 1, 0)), 10, 1, Map.of());
        assertThat(figures.waitMax()).isEqualTo(10);
        assertThat(figures.workerSeconds()).isEqualTo(10);
    }
}
