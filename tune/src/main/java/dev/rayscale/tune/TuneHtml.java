package dev.rayscale.tune;

import dev.rayscale.audit.Html;
import dev.rayscale.audit.SvgChart;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/** A {@link TuneReport} as one static HTML page: the chart of cost against wait p95, the front joined, then the text report. */
public final class TuneHtml {

    private TuneHtml() {
    }

    public static void write(TuneReport report, Path file) throws IOException {
        Files.writeString(file, page(report), StandardCharsets.UTF_8);
    }

    static String page(TuneReport report) {
        List<Outcome> all = new ArrayList<>(report.outcomes());
        all.add(report.baseline());
        List<Outcome> front = report.front().stream().sorted(Comparator.comparingDouble(outcome -> outcome.figures().cost())).toList();
        SvgChart chart = new SvgChart("cost (node-cost x hours)", "task wait p95 (s)")
                .points("#9aa5b1", "policies tried", costs(all), waits(all))
                .line("#1f77b4", "Pareto front", costs(front), waits(front))
                .points("#d62728", "recorded policy (replayed)", costs(List.of(report.baseline())), waits(List.of(report.baseline())));
        if (report.recommended() != null) {
            chart.points("#2ca02c", "recommended", costs(List.of(report.recommended())), waits(List.of(report.recommended())));
        }
        StringWriter text = new StringWriter();
        report.print(new PrintWriter(text));
        return "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>rayscale tune " + Html.escape(report.cluster())
                + "</title></head><body style=\"font-family:sans-serif\"><h1>rayscale tune: " + Html.escape(report.cluster()) + "</h1>"
                + "<p>" + Html.escape(report.recommended() != null ? "Recommended: " + report.recommended().policy().describe() : report.refusal())
                + "</p>" + chart.render("cost against task wait p95 of each policy tried") + "<pre>" + Html.escape(text.toString())
                + "</pre></body></html>\n";
    }

    private static double[] costs(List<Outcome> outcomes) {
        return outcomes.stream().mapToDouble(outcome -> outcome.figures().cost()).toArray();
    }

    private static double[] waits(List<Outcome> outcomes) {
        return outcomes.stream().mapToDouble(outcome -> outcome.figures().waitP95()).toArray();
    }
}
