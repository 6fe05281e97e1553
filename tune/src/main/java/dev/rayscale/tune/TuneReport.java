package dev.rayscale.tune;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What a tune found for one cluster: the calibration first, then each policy's figures, the Pareto front of cost against
 * wait p95 and the recommendation, with its change against the recorded policy's replay (like against like: both
 * replayed). Printed as text ({@link #print}), JSON ({@link TuneJson}) and HTML ({@link TuneHtml}).
 *
 * @param clockRate the cluster's seconds per second of the recording (a demo's simulated cluster runs faster than the wall)
 * @param seconds the recording's length, in the cluster's seconds
 * @param resolution the median time between two snapshots
 * @param recommended null when the calibration is off by more than 10% or a wait budget leaves no policy
 */
public record TuneReport(String cluster, double clockRate, double seconds, double resolution, Calibration calibration, Outcome baseline,
        List<Outcome> outcomes, List<Outcome> front, Objective objective, Outcome recommended) {

    /** The report of these outcomes with the pick of {@code objective}; none unless the calibration is trusted. */
    static TuneReport of(String cluster, double clockRate, double seconds, double resolution, Calibration calibration, Outcome baseline,
            List<Outcome> outcomes, Objective objective) {
        List<Outcome> candidates = new ArrayList<>(outcomes);
        candidates.add(baseline);
        List<Outcome> front = candidates.stream().filter(outcome -> candidates.stream().noneMatch(other -> other.dominates(outcome))).toList();
        Outcome pick = calibration.trusted() ? objective.pick(front, baseline.figures(), resolution).orElse(null) : null;
        return new TuneReport(cluster, clockRate, seconds, resolution, calibration, baseline, outcomes, front, objective, pick);
    }

    /** The same replays judged by another objective. */
    public TuneReport withObjective(Objective other) {
        return of(cluster, clockRate, seconds, resolution, calibration, baseline, outcomes, other);
    }

    public double calibrationErrorPct() {
        return calibration.error() * 100;
    }

    public boolean recommends() {
        return recommended != null;
    }

    /** Why there is no recommendation, or null. */
    public String refusal() {
        if (!calibration.trusted()) {
            return String.format(Locale.ROOT, "no recommendation: the replay of the recorded policy is off by %.1f%% (above %.0f%%), so "
                    + "the replay of another policy cannot be trusted either", calibrationErrorPct(), Calibration.LIMIT * 100);
        }
        return recommended == null ? "no recommendation: no policy on the front meets the objective (" + objective.describe() + ")" : null;
    }

    public double costChangePct() {
        return recommended == null ? 0 : percent(recommended.figures().cost(), baseline.figures().cost());
    }

    public double waitP95ChangeSeconds() {
        return recommended == null ? 0 : recommended.figures().waitP95() - baseline.figures().waitP95();
    }

    private static double percent(double value, double base) {
        return base == 0 ? 0 : (value - base) / base * 100;
    }

    public String lastLine() {
        return String.format(Locale.ROOT, "tune: policies=%d calibration_error_pct=%.1f recommended=%s cost_change_pct=%.1f wait_p95_change_s=%.1f",
                outcomes.size(), calibrationErrorPct(), recommended == null ? "none" : recommended.policy().describe(), costChangePct(),
                waitP95ChangeSeconds());
    }

    public void print(PrintWriter out) {
        out.printf(Locale.ROOT, "tune %s: %.0f s of the cluster's time, a snapshot every %.1f s%s%n", cluster, seconds, resolution,
                Math.abs(clockRate - 1) > 0.05 ? String.format(Locale.ROOT, " (its clock ran %.1fx the recording's: a simulated cluster)", clockRate) : "");
        out.println();
        out.printf(Locale.ROOT, "calibration: the recorded policy replayed on the reconstructed workload is off by %.1f%% (limit %.0f%%; "
                + "%d replay%s)%n", calibrationErrorPct(), Calibration.LIMIT * 100, calibration.replays(), calibration.replays() == 1 ? "" : "s");
        out.printf(Locale.ROOT, "  %-16s %12s %12s %8s%n", "figure", "recorded", "replayed", "error");
        Figures recorded = calibration.recorded();
        Figures replayed = calibration.replayed();
        Map<String, Double> errors = calibration.errors();
        row(out, "worker-seconds", recorded.workerSeconds(), replayed.workerSeconds(), errors.get("worker-seconds"));
        row(out, "cost", recorded.cost(), replayed.cost(), errors.get("cost"));
        row(out, "wait p50 (s)", recorded.waitP50(), replayed.waitP50(), errors.get("wait p50"));
        row(out, "wait p95 (s)", recorded.waitP95(), replayed.waitP95(), errors.get("wait p95"));
        row(out, "cold starts", recorded.coldStarts(), replayed.coldStarts(), errors.get("cold starts"));
        row(out, "scale events", recorded.scaleEvents(), replayed.scaleEvents(), errors.get("scale events"));
        Reconstruction workload = calibration.reconstruction();
        out.printf(Locale.ROOT, "  workload: %d tasks and placement groups (%d started unseen), durations %s, pod start-up %.0f s%s%n",
                workload.tasks(), workload.unseenStarts(), durations(workload.durations()), workload.workload().podStartSeconds(),
                calibration.durationScale() == 1 && calibration.startupScale() == 1 ? ""
                        : String.format(Locale.ROOT, " (stretched x%.2f and x%.2f to calibrate)", calibration.durationScale(), calibration.startupScale()));
        workload.notes().forEach(note -> out.println("  " + note));
        out.println();
        out.printf(Locale.ROOT, "%-48s %12s %10s %9s %9s %9s %6s %6s %6s%n", "policy", "worker-s", "cost", "wait p50", "wait p95", "wait max",
                "cold", "scale", "front");
        policyRow(out, baseline);
        outcomes.forEach(outcome -> policyRow(out, outcome));
        out.println();
        out.println("objective: " + objective.describe());
        if (recommended != null) {
            out.printf(Locale.ROOT, "recommended: %s (cost %+.1f%%, wait p95 %+.1f s against the recorded policy's replay)%n",
                    recommended.policy().describe(), costChangePct(), waitP95ChangeSeconds());
        } else {
            out.println(refusal());
        }
        out.println(lastLine());
        out.flush();
    }

    private static void row(PrintWriter out, String name, double recorded, double replayed, double error) {
        out.printf(Locale.ROOT, "  %-16s %12.2f %12.2f %7.1f%%%n", name, recorded, replayed, error * 100);
    }

    private void policyRow(PrintWriter out, Outcome outcome) {
        Figures figures = outcome.figures();
        String name = outcome == baseline ? "recorded policy (replayed)" : outcome.policy().describe();
        out.printf(Locale.ROOT, "%-48s %12.0f %10.2f %9.1f %9.1f %9.1f %6d %6d %6s%n", name, figures.workerSeconds(), figures.cost(),
                figures.waitP50(), figures.waitP95(), figures.waitMax(), figures.coldStarts(), figures.scaleEvents(), front.contains(outcome) ? "*" : "");
    }

    private static String durations(Map<String, Double> durations) {
        StringBuilder text = new StringBuilder();
        durations.forEach((resource, seconds) -> text.append(text.length() == 0 ? "" : ", ").append(String.format(Locale.ROOT, "%s work %.0f s", resource, seconds)));
        return text.length() == 0 ? "none" : text.toString();
    }
}
