package dev.rayscale.audit;

import dev.rayscale.events.ActuationResult;
import dev.rayscale.events.GroupTarget;
import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The audit as one HTML page, as the demo's report shows a run: per cluster, a chart of the replicas its
 * decisions asked for and the tasks waiting when each was made, and a table of every decision with why,
 * what was done and how long it took; then every flag and the figures. A page is for reading: it shows
 * at most {@value #CHAINS_SHOWN} decisions and {@value #FLAGS_SHOWN} flags (say {@code --cluster} or a
 * time range for more); the counts are always whole.
 */
public final class AuditHtml implements AuditOutput {

    static final int CHAINS_SHOWN = 5_000;
    static final int FLAGS_SHOWN = 1_000;

    private final PrintWriter out;
    private final String title;
    private final Map<String, List<Chain>> chains = new TreeMap<>();
    private final List<Flag> flags = new ArrayList<>();
    private long chainsSeen;
    private long flagsSeen;

    public AuditHtml(PrintWriter out, String title) {
        this.out = out;
        this.title = title;
    }

    @Override
    public void chain(Chain chain) {
        if (chainsSeen++ < CHAINS_SHOWN) {
            chains.computeIfAbsent(chain.cluster(), cluster -> new ArrayList<>()).add(chain);
        }
    }

    @Override
    public void flag(Flag flag) {
        if (flagsSeen++ < FLAGS_SHOWN) {
            flags.add(flag);
        }
    }

    @Override
    public void finish(Auditor.Totals totals) {
        StringBuilder body = new StringBuilder("<h1>Rayscale audit: ").append(Html.escape(title)).append("</h1><p>")
                .append(Html.escape(AuditOutput.line(totals))).append("</p>");
        if (chainsSeen > CHAINS_SHOWN || flagsSeen > FLAGS_SHOWN) {
            body.append("<p><b>Shown: the first ").append(Math.min(chainsSeen, CHAINS_SHOWN)).append(" of ").append(chainsSeen)
                    .append(" decisions and ").append(Math.min(flagsSeen, FLAGS_SHOWN)).append(" of ").append(flagsSeen)
                    .append(" flags.</b> Select a cluster or a time range for the rest.</p>");
        }
        body.append("<h2>Flags</h2>").append(flags.isEmpty() ? "<p>None: the chain is complete.</p>" : flagTable());
        body.append("<h2>Figures</h2><table>").append(Html.row("records", totals.records)).append(Html.row("snapshots", totals.snapshots))
                .append(Html.row("decisions", totals.decisions)).append(Html.row("actuation results", totals.results))
                .append(Html.row("results by outcome", totals.outcomes)).append(Html.row("dead letters", totals.deadLetters))
                .append(Html.row("unreadable records", totals.unreadable)).append("</table>");
        chains.forEach((cluster, list) -> body.append(cluster(cluster, list)));
        out.print(Html.page("Rayscale audit: " + title, body.toString()));
        out.flush();
    }

    private String cluster(String cluster, List<Chain> list) {
        Instant start = list.get(0).decision().decidedAt();
        double[] xs = new double[list.size()];
        double[] replicas = new double[list.size()];
        double[] waiting = new double[list.size()];
        SvgChart chart = new SvgChart("time from the first decision (s)", "replicas, tasks");
        StringBuilder rows = new StringBuilder();
        for (int i = 0; i < list.size(); i++) {
            Chain chain = list.get(i);
            xs[i] = seconds(start, chain.decision().decidedAt());
            replicas[i] = chain.decision().groups().stream().mapToInt(GroupTarget::targetReplicas).sum();
            waiting[i] = Math.max(0, chain.waitingTasks());
            chart.mark(xs[i]);
            ActuationResult result = chain.result();
            rows.append("<tr class=\"decision\"><td>").append(chain.decidedAt()).append("</td><td>").append(Html.escape(Digest.targets(chain.decision())))
                    .append("</td><td>").append(Html.escape(chain.snapshotDigest() == null ? "(snapshot not in the recording)" : chain.snapshotDigest()))
                    .append("</td><td>").append(Html.escape(String.join("; ", chain.decision().reasons()))).append("</td><td>")
                    .append(result == null ? "<b>no result</b>" : Html.escape(Digest.of(result))).append("</td><td>")
                    .append(Html.escape(millis(chain.toDecide()) + " / " + millis(chain.toReceive()) + " / " + millis(chain.toApply())))
                    .append("</td></tr>");
        }
        chart.steps("#1f77b4", "target replicas (all groups)", xs, replicas).steps("#d62728", "tasks waiting (as the decision saw them)", xs, waiting);
        return "<h2>" + Html.escape(cluster) + "</h2>" + chart.render("target replicas and waiting tasks of " + cluster)
                + "<table class=\"decisions\"><tr><th>decided</th><th>change</th><th>saw</th><th>why</th><th>actuation</th>"
                + "<th>observed&rarr;decided / &rarr;received / &rarr;applied</th></tr>" + rows + "</table>";
    }

    private String flagTable() {
        StringBuilder rows = new StringBuilder("<table><tr><th>flag</th><th>cluster</th><th>at</th><th>where</th><th>what</th></tr>");
        for (Flag flag : flags) {
            rows.append("<tr><td>").append(flag.kind().fails() ? "<b>" + flag.kind().label() + "</b>" : flag.kind().label()).append("</td><td>")
                    .append(Html.escape(flag.cluster())).append("</td><td>").append(flag.at()).append("</td><td>")
                    .append(Html.escape(flag.position())).append("</td><td>").append(Html.escape(flag.detail())).append("</td></tr>");
        }
        return rows.append("</table>").toString();
    }

    private static double seconds(Instant start, Instant at) {
        return Math.max(0, Duration.between(start, at).toMillis() / 1000.0);
    }

    private static String millis(Duration duration) {
        return duration == null ? "-" : String.format(Locale.ROOT, "%d ms", duration.toMillis());
    }
}
