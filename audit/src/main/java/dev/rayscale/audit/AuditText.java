package dev.rayscale.audit;

import dev.rayscale.events.ActuationResult;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;

/**
 * The audit for people: each decision as it settles, with what its snapshot showed, why, what the actuator
 * did and how long each hop took; each flag on its own line; a table per cluster and the last line at the end.
 * With a decision id, that decision's whole chain, every event in full.
 */
public final class AuditText implements AuditOutput {

    private final PrintWriter out;
    private final String onlyDecision;

    /**
     * @param out where the audit goes; control characters of the events' free text are escaped on the way ({@link TerminalText})
     * @param onlyDecision print only this decision's chain, in full; null for every decision
     */
    public AuditText(PrintWriter out, String onlyDecision) {
        this.out = new PrintWriter(new TerminalText(out), false);
        this.onlyDecision = onlyDecision;
    }

    @Override
    public void chain(Chain chain) {
        if (onlyDecision != null) {
            if (chain.decision().id().equals(onlyDecision)) {
                printWhole(chain);
            }
            return;
        }
        ActuationResult result = chain.result();
        out.printf(Locale.ROOT, "%s  %s  decision %s  %s%n", chain.cluster(), chain.decidedAt(), chain.decision().id(),
                Digest.targets(chain.decision()));
        out.println("    saw      " + (chain.snapshotDigest() == null ? "(snapshot " + chain.decision().snapshotSequence()
                + " not in the recording)" : chain.snapshotDigest()) + "  [snapshot " + chain.decision().snapshotSequence() + "]");
        chain.decision().reasons().forEach(reason -> out.println("    because  " + reason));
        out.println("    did      " + (result == null ? "NO RESULT" : Digest.of(result)));
        out.println("    took     observed->decided " + millis(chain.toDecide()) + ", decided->received " + millis(chain.toReceive())
                + ", received->applied " + millis(chain.toApply()));
    }

    private void printWhole(Chain chain) {
        out.println("decision " + chain.decision().id() + " of " + chain.cluster());
        out.println("snapshot " + chain.decision().snapshotId() + ":");
        out.println(chain.snapshot() == null ? "  (not in the recording)" : Pretty.json(chain.snapshot()));
        out.println("decision (written " + chain.decidedAt() + "):");
        out.println(Pretty.json(chain.decision()));
        out.println("actuation results: " + (chain.results().isEmpty() ? "none" : ""));
        chain.results().forEach(result -> out.println(Pretty.json(result)));
        out.println("hops: observed->decided " + millis(chain.toDecide()) + ", decided->received " + millis(chain.toReceive())
                + ", received->applied " + millis(chain.toApply()));
    }

    @Override
    public void flag(Flag flag) {
        if (onlyDecision != null && !flag.detail().contains(onlyDecision)) {
            return;
        }
        out.printf(Locale.ROOT, "%s %s  %s  %s  at %s: %s%n", flag.kind().fails() ? "FLAG" : "note", flag.kind().label(), flag.cluster(),
                flag.at(), flag.position(), flag.detail());
    }

    @Override
    public void finish(Auditor.Totals totals) {
        Map<String, long[]> perCluster = totals.perCluster();
        if (onlyDecision == null && !perCluster.isEmpty()) {
            out.println();
            out.printf(Locale.ROOT, "%-40s %10s %10s %10s %8s%n", "cluster", "snapshots", "decisions", "results", "flags");
            for (Map.Entry<String, long[]> cluster : perCluster.entrySet()) {
                long[] counts = cluster.getValue();
                out.printf(Locale.ROOT, "%-40s %10d %10d %10d %8d%n", cluster.getKey(), counts[0], counts[1], counts[2], counts[3]);
            }
        }
        if (!totals.outcomes.isEmpty()) {
            out.println("results by outcome: " + totals.outcomes);
        }
        if (!totals.flags.isEmpty()) {
            out.println("flags: " + totals.flags);
        }
        out.println(AuditOutput.line(totals));
        out.flush();
    }

    private static String millis(Duration duration) {
        return duration == null ? "-" : duration.toMillis() + " ms";
    }
}
