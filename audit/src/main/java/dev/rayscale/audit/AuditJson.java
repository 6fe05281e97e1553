package dev.rayscale.audit;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.rayscale.events.ActuationResult;
import dev.rayscale.events.codec.EventJson;
import java.io.PrintWriter;
import java.time.Duration;

/**
 * The audit for programs: one JSON object per line, {@code "kind"} {@code chain}, {@code flag} or, last,
 * {@code summary}. A chain carries the decision, its results and the snapshot's digest (the whole snapshot
 * with a decision id).
 */
public final class AuditJson implements AuditOutput {

    private final PrintWriter out;
    private final String onlyDecision;
    private final ObjectMapper mapper = EventJson.mapper();

    public AuditJson(PrintWriter out, String onlyDecision) {
        this.out = out;
        this.onlyDecision = onlyDecision;
    }

    @Override
    public void chain(Chain chain) {
        if (onlyDecision != null && !chain.decision().id().equals(onlyDecision)) {
            return;
        }
        ObjectNode line = mapper.createObjectNode().put("kind", "chain").put("cluster", chain.cluster());
        line.put("snapshotDigest", chain.snapshotDigest());
        if (chain.snapshot() != null) {
            line.set("snapshot", mapper.valueToTree(chain.snapshot()));
        }
        line.set("decision", mapper.valueToTree(chain.decision()));
        line.put("decisionWrittenAt", chain.decidedAt().toString());
        line.set("results", mapper.valueToTree(chain.results()));
        ActuationResult result = chain.result();
        line.put("outcome", result == null ? null : result.outcome().name());
        put(line, "observedToDecidedMs", chain.toDecide());
        put(line, "decidedToReceivedMs", chain.toReceive());
        put(line, "receivedToAppliedMs", chain.toApply());
        out.println(line);
    }

    private static void put(ObjectNode line, String name, Duration duration) {
        if (duration != null) {
            line.put(name, duration.toMillis());
        }
    }

    @Override
    public void flag(Flag flag) {
        if (onlyDecision != null && !flag.detail().contains(onlyDecision)) {
            return;
        }
        out.println(mapper.createObjectNode().put("kind", "flag").put("flag", flag.kind().label()).put("fails", flag.kind().fails())
                .put("cluster", flag.cluster()).put("at", flag.at().toString()).put("position", flag.position()).put("detail", flag.detail()));
    }

    @Override
    public void finish(Auditor.Totals totals) {
        ObjectNode summary = mapper.createObjectNode().put("kind", "summary").put("records", totals.records).put("snapshots", totals.snapshots)
                .put("decisions", totals.decisions).put("results", totals.results).put("deadLetters", totals.deadLetters)
                .put("unreadable", totals.unreadable).put("complete", totals.complete());
        ObjectNode outcomes = summary.putObject("outcomes");
        totals.outcomes.forEach((outcome, count) -> outcomes.put(outcome.name(), count));
        ObjectNode flags = summary.putObject("flags");
        totals.flags.forEach((kind, count) -> flags.put(kind.label(), count));
        out.println(summary);
        out.flush();
    }
}
