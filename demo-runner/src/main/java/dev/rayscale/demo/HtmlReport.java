package dev.rayscale.demo;

import dev.rayscale.audit.Digest;
import dev.rayscale.audit.Html;
import dev.rayscale.audit.SvgChart;
import dev.rayscale.events.ActuationResult;
import dev.rayscale.events.ScaleDecision;
import dev.rayscale.sim.Sample;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.DoubleUnaryOperator;
import java.util.function.ToDoubleFunction;
import java.util.stream.Collectors;

/** A self-contained HTML page: demand and workers over time as an inline SVG chart, the figures, and every decision. */
final class HtmlReport {

    private HtmlReport() {
    }

    static String render(String workload, String description, List<Sample> samples, Summary summary, List<ScaleDecision> decisions,
            List<ActuationResult> actuations, Map<String, String> rayStatus, List<String> happenings, double speed,
            DoubleUnaryOperator simSecondsOf) {
        double[] seconds = values(samples, Sample::seconds);
        SvgChart chart = new SvgChart("time (s simulated)", "tasks, pods, nodes")
                .line("#d62728", "pending tasks", seconds, values(samples, Sample::pendingTasks))
                .line("#ff7f0e", "running tasks", seconds, values(samples, Sample::runningTasks))
                .line("#9467bd", "worker pods (incl. waiting)", seconds, values(samples, Sample::workerPods))
                .line("#1f77b4", "worker Ray nodes", seconds, values(samples, Sample::registeredWorkers));
        StringBuilder rows = new StringBuilder();
        for (ScaleDecision decision : decisions) {
            double at = simSecondsOf.applyAsDouble(decision.decidedAt().toEpochMilli() / 1000.0);
            chart.mark(at);
            ActuationResult result = actuations.stream().filter(a -> a.decisionId().equals(decision.id())).findFirst().orElse(null);
            rows.append("<tr class=\"decision\"><td>").append(String.format(Locale.ROOT, "%.0f s", at))
                    .append("</td><td>").append(Html.escape(Digest.targets(decision))).append("</td><td>")
                    .append(Html.escape(String.join("; ", decision.reasons()))).append("</td><td>")
                    .append(result == null ? "" : result.outcome() + ": " + Html.escape(result.reason())).append("</td><td><details><summary>")
                    .append("ray status</summary><pre>").append(Html.escape(rayStatus.getOrDefault(decision.id(), "")))
                    .append("</pre></details></td></tr>");
        }
        String injected = happenings.isEmpty() ? "" : "<h2>What happened to the cluster</h2><ul>"
                + happenings.stream().map(line -> "<li>" + Html.escape(line) + "</li>").collect(Collectors.joining()) + "</ul>";
        return Html.page("Rayscale demo: " + workload, "<h1>Rayscale demo: " + Html.escape(workload) + "</h1><p>" + Html.escape(description) + "</p>"
                + "<p>Simulated time, " + speed + "x real time. Dashed lines: decisions.</p>"
                + chart.render("demand and workers over time")
                + "<h2>Figures</h2><table>"
                + Html.row("peak worker Ray nodes", summary.peakWorkers())
                + Html.row("workers at the end", summary.finalWorkers())
                + Html.row("pods deleted while running work", summary.busyDeletions())
                + Html.row("GCS crashes caused by a client", summary.gcsCrashes())
                + Html.row("pods the operator deleted by its own choice", summary.operatorDeletions())
                + Html.row("of its own choice, forced by a named pod lost after Rayscale read the pods (running work)",
                        summary.forcedByLoss().pods() + " (" + summary.forcedByLoss().busy() + ")")
                + Html.row("demand to first patch", String.format(Locale.ROOT, "%.1f s", summary.timeToFirstPatchSeconds()))
                + Html.row("demand to full capacity (no task waiting)", String.format(Locale.ROOT, "%.1f s", summary.timeToCapacitySeconds()))
                + Html.row("worker-seconds used / needed by the work", String.format(Locale.ROOT, "%.0f / %.0f", summary.workerSeconds(),
                        summary.idealWorkerSeconds()))
                + Html.row("decisions published / patches applied", summary.decisions() + " / " + summary.patches())
                + Html.row("drains accepted / refused", summary.drainsAccepted() + " / " + summary.drainsRejected())
                + Html.row("tasks completed", summary.completedTasks())
                + Html.row("infeasible demand (last decision)", summary.infeasible())
                + "</table>" + injected
                + "<h2>Decisions</h2><p>With each, what <code>ray status</code> printed in the cluster when it arrived.</p>"
                + "<table class=\"decisions\"><tr><th>at</th><th>change</th><th>why</th><th>actuation</th><th>Ray's view</th></tr>" + rows
                + "</table>");
    }

    private static double[] values(List<Sample> samples, ToDoubleFunction<Sample> value) {
        return samples.stream().mapToDouble(value).toArray();
    }
}
