package dev.rayscale.demo;

import dev.rayscale.audit.Digest;
import dev.rayscale.events.ActuationResult;
import dev.rayscale.events.ScaleDecision;
import dev.rayscale.sim.Sample;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.DoubleUnaryOperator;
import java.util.function.ToDoubleFunction;
import java.util.stream.Collectors;

/** A self-contained HTML page: demand and workers over time as an inline SVG chart, the figures, and every decision. */
final class HtmlReport {

    private static final int WIDTH = 900;
    private static final int HEIGHT = 320;
    private static final int MARGIN = 40;

    private HtmlReport() {
    }

    static String render(String workload, String description, List<Sample> samples, Summary summary, List<ScaleDecision> decisions,
            List<ActuationResult> actuations, Map<String, String> rayStatus, List<String> happenings, double speed,
            DoubleUnaryOperator simSecondsOf) {
        double maxX = samples.isEmpty() ? 1 : samples.get(samples.size() - 1).seconds();
        double maxY = samples.stream().mapToDouble(s -> Math.max(Math.max(s.pendingTasks() + s.runningTasks(), s.workerPods()),
                s.registeredWorkers())).max().orElse(1);
        maxY = Math.max(1, maxY);
        StringBuilder svg = new StringBuilder()
                .append("<svg viewBox=\"0 0 ").append(WIDTH).append(' ').append(HEIGHT).append("\" width=\"").append(WIDTH)
                .append("\" height=\"").append(HEIGHT).append("\" role=\"img\" aria-label=\"demand and workers over time\">")
                .append("<rect width=\"100%\" height=\"100%\" fill=\"#fff\"/>")
                .append(axis(maxX, maxY));
        Map<String, ToDoubleFunction<Sample>> series = new LinkedHashMap<>();
        series.put("#d62728|pending tasks", s -> s.pendingTasks());
        series.put("#ff7f0e|running tasks", s -> s.runningTasks());
        series.put("#9467bd|worker pods (incl. waiting)", s -> s.workerPods());
        series.put("#1f77b4|worker Ray nodes", s -> s.registeredWorkers());
        int legend = 0;
        for (Map.Entry<String, ToDoubleFunction<Sample>> line : series.entrySet()) {
            String[] style = line.getKey().split("\\|");
            double top = maxY;
            String points = samples.stream().map(s -> x(s.seconds(), maxX) + "," + y(line.getValue().applyAsDouble(s), top))
                    .collect(Collectors.joining(" "));
            svg.append("<polyline fill=\"none\" stroke=\"").append(style[0]).append("\" stroke-width=\"2\" points=\"").append(points)
                    .append("\"/>")
                    .append("<text x=\"").append(MARGIN + 10 + legend * 210).append("\" y=\"16\" font-size=\"12\" fill=\"").append(style[0])
                    .append("\">&#9632; ").append(style[1]).append("</text>");
            legend++;
        }
        for (ScaleDecision decision : decisions) {
            double at = simSecondsOf.applyAsDouble(decision.decidedAt().toEpochMilli() / 1000.0);
            svg.append("<line x1=\"").append(x(at, maxX)).append("\" x2=\"").append(x(at, maxX)).append("\" y1=\"").append(MARGIN)
                    .append("\" y2=\"").append(HEIGHT - MARGIN).append("\" stroke=\"#999\" stroke-dasharray=\"3,3\"/>");
        }
        svg.append("</svg>");
        StringBuilder rows = new StringBuilder();
        for (ScaleDecision decision : decisions) {
            ActuationResult result = actuations.stream().filter(a -> a.decisionId().equals(decision.id())).findFirst().orElse(null);
            rows.append("<tr><td>").append(String.format(Locale.ROOT, "%.0f s",
                            simSecondsOf.applyAsDouble(decision.decidedAt().toEpochMilli() / 1000.0)))
                    .append("</td><td>").append(escape(Digest.targets(decision))).append("</td><td>")
                    .append(escape(String.join("; ", decision.reasons()))).append("</td><td>")
                    .append(result == null ? "" : result.outcome() + ": " + escape(result.reason())).append("</td><td><details><summary>")
                    .append("ray status</summary><pre>").append(escape(rayStatus.getOrDefault(decision.id(), ""))).append("</pre></details></td></tr>");
        }
        String injected = happenings.isEmpty() ? "" : "<h2>What happened to the cluster</h2><ul>"
                + happenings.stream().map(line -> "<li>" + escape(line) + "</li>").collect(Collectors.joining()) + "</ul>";
        return "<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>Rayscale demo: " + escape(workload) + "</title>"
                + "<style>body{font-family:sans-serif;margin:2em;color:#222}table{border-collapse:collapse}"
                + "td,th{border:1px solid #ccc;padding:4px 8px;font-size:13px;vertical-align:top}</style></head><body>"
                + "<h1>Rayscale demo: " + escape(workload) + "</h1><p>" + escape(description) + "</p>"
                + "<p>Simulated time, " + speed + "x real time. Dashed lines: decisions.</p>" + svg
                + "<h2>Figures</h2><table>"
                + row("peak worker Ray nodes", summary.peakWorkers())
                + row("workers at the end", summary.finalWorkers())
                + row("pods deleted while running work", summary.busyDeletions())
                + row("GCS crashes caused by a client", summary.gcsCrashes())
                + row("pods the operator deleted by its own choice", summary.operatorDeletions())
                + row("of its own choice, forced by a named pod lost after Rayscale read the pods (running work)",
                        summary.forcedByLoss().pods() + " (" + summary.forcedByLoss().busy() + ")")
                + row("demand to first patch", String.format(Locale.ROOT, "%.1f s", summary.timeToFirstPatchSeconds()))
                + row("demand to full capacity (no task waiting)", String.format(Locale.ROOT, "%.1f s", summary.timeToCapacitySeconds()))
                + row("worker-seconds used / needed by the work", String.format(Locale.ROOT, "%.0f / %.0f", summary.workerSeconds(),
                        summary.idealWorkerSeconds()))
                + row("decisions published / patches applied", summary.decisions() + " / " + summary.patches())
                + row("drains accepted / refused", summary.drainsAccepted() + " / " + summary.drainsRejected())
                + row("tasks completed", summary.completedTasks())
                + row("infeasible demand (last decision)", summary.infeasible())
                + "</table>" + injected
                + "<h2>Decisions</h2><p>With each, what <code>ray status</code> printed in the cluster when it arrived.</p>"
                + "<table><tr><th>at</th><th>change</th><th>why</th><th>actuation</th><th>Ray's view</th></tr>" + rows
                + "</table></body></html>\n";
    }

    private static String axis(double maxX, double maxY) {
        return "<line x1=\"" + MARGIN + "\" y1=\"" + (HEIGHT - MARGIN) + "\" x2=\"" + (WIDTH - 10) + "\" y2=\"" + (HEIGHT - MARGIN)
                + "\" stroke=\"#333\"/><line x1=\"" + MARGIN + "\" y1=\"" + MARGIN + "\" x2=\"" + MARGIN + "\" y2=\"" + (HEIGHT - MARGIN)
                + "\" stroke=\"#333\"/><text x=\"" + (WIDTH - 120) + "\" y=\"" + (HEIGHT - 10) + "\" font-size=\"12\">"
                + String.format(Locale.ROOT, "%.0f s simulated", maxX) + "</text><text x=\"4\" y=\"" + (MARGIN - 4)
                + "\" font-size=\"12\">" + String.format(Locale.ROOT, "%.0f", maxY) + "</text>";
    }

    private static String x(double seconds, double maxX) {
        return String.format(Locale.ROOT, "%.1f", MARGIN + seconds / maxX * (WIDTH - MARGIN - 10));
    }

    private static String y(double value, double maxY) {
        return String.format(Locale.ROOT, "%.1f", HEIGHT - MARGIN - value / maxY * (HEIGHT - 2 * MARGIN));
    }

    private static String row(String name, Object value) {
        return "<tr><td>" + escape(name) + "</td><td>" + escape(String.valueOf(value)) + "</td></tr>";
    }

    private static String escape(String text) {
        return text == null ? "" : text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }
}
