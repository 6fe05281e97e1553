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
 * @param replays how many replays of the recorded policy the calibration took
 */
record Calibration(double durationScale, double startupScale, Reconstruction reconstruction, Figures recorded, Figures replayed,
        Map<String, Double> errors, int replays) {

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
        return new Calibration(durationScale, startupScale, reconstruction, recorded, replayed, errors, 1);
    }

    private static double relative(double replayed, double recorded, double floor) {
        double scale = Math.max(Math.abs(recorded), floor);
        return scale == 0 ? (replayed == 0 ? 0 : 1) : Math.abs(replayed - recorded) / scale;
    }

    /** The closer of this and {@code tried}, counting the replays of both. */
    Calibration closer(Calibration tried) {
        Calibration closer = tried.error() < error() ? tried : this;
        return new Calibration(closer.durationScale, closer.startupScale, closer.reconstruction, closer.recorded, closer.replayed,
                closer.errors, replays + tried.replays);
    }

    double error() {
        return errors.values().stream().mapToDouble(Double::doubleValue).max().orElse(0);
    }

    boolean trusted() {
        return error() <= LIMIT;
    }
}
