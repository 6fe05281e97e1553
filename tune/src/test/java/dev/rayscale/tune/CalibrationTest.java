package dev.rayscale.tune;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rayscale.planner.core.PlannerSettings;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The demo's recordings, each replayed under its recorded policy, reproduce their own figures within 10%. */
class CalibrationTest {

    @ParameterizedTest
    @ValueSource(strings = {"walkthrough", "burst", "gpu-mix", "node-pool-wait"})
    void theRecordedPolicyReplayedReproducesTheRecording(String recording) {
        Tuner tuner = Recordings.read(recording, new Tuner(List.of("idleTimeoutSeconds=30,120"), Objective.of("balanced", null)));
        TuneReport report = tuner.tune(tuner.clusters().get(0), PlannerSettings.defaults("test"));
        StringWriter text = new StringWriter();
        report.print(new PrintWriter(text));
        System.out.println(text);
        assertThat(report.calibrationErrorPct()).as(text.toString()).isLessThanOrEqualTo(10);
        assertThat(report.calibration().recorded().workerSeconds()).isPositive();
        assertThat(report.recommends()).isTrue();
    }
}
