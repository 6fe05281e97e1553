package dev.rayscale.tune;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * How closely the replay of the recorded policy reproduces the recording: each figure's error relative to the recorded
 * value (worker-seconds, cost, wait p50 and p95, cold starts, scale events), with a floor where the recording cannot tell
 * finer (waits: the time between two snapshots; counts: ten, so that one more or less in a handful is not a miss). The
 * error is the largest of them.
 *
 * @param durationScale, startupScale what the reconstruction's estimates were stretched by to get here
 */
record Calibration(double durationScale, double startupScale, Reconstruction reconstruction, Figures recorded, Figures replayed,
        Map<String, Double> errors) {

    /** Above this, no policy is recommended. */
    static final double LIMIT = 0.10;

    static Calibration of(double durationScale, double startupScale, Reconstruction reconstruction, Figures recorded, Figures replayed,
            double resolution) {
        Map<String, Double> errors = new LinkedHashMap<>();
        errors.put("worker-seconds", relative(replayed.workerSeconds(), recorded.workerSeconds(), resolution));
        errors.put("wait p50", relative(replayed.waitP50(), recorded.waitP50(), resolution));
        errors.put("wait p95", relative(replayed.waitP95(), recorded.waitP95(), resolution));
        errors.put("cost", relative(replayed.cost(), recorded.cost(), 0));
        errors.put("cold starts", relative(replayed.coldStarts(), recorded.coldStarts(), 10));
        errors.put("scale events", relative(replayed.scaleEvents(), recorded.scaleEvents(), 10));
        return new Calibration(durationScale, startupScale, reconstruction, recorded, replayed, errors);
    }

    private static double relative(double replayed, double recorded, double floor) {
        double scale = Math.max(Math.abs(recorded), floor);
        return scale == 0 ? (replayed == 0 ? 0 : 1) : Math.abs(replayed - recorded) / scale;
    }

    double error() {
        return errors.values().stream().mapToDouble(Double::doubleValue).max().orElse(0);
    }

    boolean trusted() {
        return error() <= LIMIT;
    }
}
