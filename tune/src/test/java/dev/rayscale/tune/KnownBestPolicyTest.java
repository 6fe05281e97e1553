package dev.rayscale.tune;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rayscale.planner.core.PlannerSettings;
import dev.rayscale.sim.Workload;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A recording whose best policies are known by construction ({@code workloads/bursts.yaml}): 25 bursts 90 s apart, each
 * done in 20 s once its pods run, under a 60 s idle timeout. After every other burst the workers idle 70 s and are removed
 * just before the next burst, which waits 20 s for new pods: half the tasks wait. A 120 s timeout keeps the workers (only
 * the first burst of 25 waits, so the p95 wait is none) for a few percent more; a 30 s timeout removes them after every
 * burst: the cheapest, every task waiting.
 */
class KnownBestPolicyTest {

    private static final List<String> GRID = List.of("idleTimeoutSeconds=30,60,120");
    private static TuneReport tuned;

    /**
     * The recording, as the collector would have written it (a snapshot every 5 s, the planner acting on each at once), tuned
     * once: each test judges the same replays by its objective.
     */
    @BeforeAll
    static void recordAndTune() throws URISyntaxException {
        Workload bursts = Workload.read(Path.of(KnownBestPolicyTest.class.getResource("/workloads/bursts.yaml").toURI()));
        Tuner tuner = new Tuner(GRID, Objective.of("balanced", null));
        SimulatedRecording.of(bursts, 2400, 5, PlannerSettings.defaults("test"), tuner::accept);
        tuned = tuner.tune(tuner.clusters().get(0), PlannerSettings.defaults("test"));
        StringWriter text = new StringWriter();
        tuned.print(new PrintWriter(text));
        System.out.println(text);
        assertThat(tuned.calibrationErrorPct()).as(text.toString()).isLessThanOrEqualTo(10);
    }

    private static TuneReport tune(Objective objective) {
        return tuned.withObjective(objective);
    }

    @Test
    void theShortestWaitKeepsTheWorkersWarm() {
        TuneReport report = tune(Objective.of("wait", null));
        assertThat(report.recommended().policy().describe()).isEqualTo("idleTimeoutSeconds=120");
        assertThat(report.waitP95ChangeSeconds()).isNegative();
        assertThat(report.recommended().figures().coldStarts()).isLessThan(report.baseline().figures().coldStarts());
        assertThat(report.lastLine()).startsWith("tune: policies=3 calibration_error_pct=").contains(" recommended=idleTimeoutSeconds=120 ");
    }

    @Test
    void balancedBuysTheWaitBackForAFewPercentOfCost() {
        TuneReport report = tune(Objective.of("balanced", null));
        assertThat(report.recommended().policy().describe()).isEqualTo("idleTimeoutSeconds=120");
        assertThat(report.costChangePct()).isPositive().isLessThan(15);
    }

    @Test
    void theLowestCostRemovesTheWorkersSooner() {
        TuneReport report = tune(Objective.of("cost", null));
        assertThat(report.recommended().policy().describe()).isEqualTo("idleTimeoutSeconds=30");
        assertThat(report.costChangePct()).isNegative();
        assertThat(report.recommended().figures().coldStarts()).isGreaterThan(report.baseline().figures().coldStarts());
    }

    @Test
    void aWaitBudgetPicksTheCheapestPolicyWithinIt() {
        assertThat(tune(Objective.of("balanced", 1.0)).recommended().policy().describe()).isEqualTo("idleTimeoutSeconds=120");
        assertThat(tune(Objective.of("balanced", 3600.0)).recommended().policy().describe()).isEqualTo("idleTimeoutSeconds=30");
    }
}
