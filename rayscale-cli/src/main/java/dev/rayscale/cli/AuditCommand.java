package dev.rayscale.cli;

import dev.rayscale.audit.AuditHtml;
import dev.rayscale.audit.AuditJson;
import dev.rayscale.audit.AuditOutput;
import dev.rayscale.audit.AuditText;
import dev.rayscale.audit.Auditor;
import dev.rayscale.audit.Chain;
import dev.rayscale.audit.Flag;
import dev.rayscale.audit.RecordSource;
import java.io.BufferedWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code ./rayscale audit}: what Rayscale saw and did, decision by decision, and what an auditor must see. */
@Command(name = "audit", mixinStandardHelpOptions = true,
        description = {"Prints, per cluster, every decision with the demand it answered (a digest of its snapshot), its reasons, "
                + "the actuation (outcome, what was patched, drains) and the time of each hop (observed -> decided -> received "
                + "-> applied), and flags: decisions without a result, results without a decision, snapshot sequence reversals, "
                + "gaps (no snapshot for longer than --max-silence, a decision whose snapshot is missing), dead-letter records, "
                + "decisions applied more than once, records that are not Rayscale events. Last line:",
            "  audit: records=N snapshots=S decisions=D results=R dead_letters=L unreadable=U flagged=F complete=true|false"},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:the chain is complete", "1:something was flagged", "2:bad input (arguments, an unreadable file, no broker)"})
public class AuditCommand implements Callable<Integer> {

    enum Format { text, json, html }

    @Mixin
    RecordingOptions recording;

    @Option(names = "--decision", paramLabel = "ID", description = "Print only this decision's whole chain: its snapshot, the decision and its results in full.")
    String decision;

    @Option(names = "--format", defaultValue = "text", description = "text, json (one object per line) or html. Default: ${DEFAULT-VALUE}.")
    Format format;

    @Option(names = {"--output", "-o"}, paramLabel = "FILE", description = "Write the audit here instead of to the standard output.")
    Path output;

    @Option(names = "--max-silence", defaultValue = "30s", paramLabel = "DURATION",
            description = "Flag a cluster with no snapshot for longer than this (the collector publishes at least every 5 s). Default: ${DEFAULT-VALUE}.")
    String maxSilence;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        Duration silence = Durations.parse(maxSilence, spec.commandLine(), "--max-silence");
        recording.refuseAsOutput(output, spec.commandLine());
        // Buffered either way: an audit of a long history is millions of lines, and a flush per line costs more than the audit.
        PrintWriter out = new PrintWriter(new BufferedWriter(output == null ? spec.commandLine().getOut()
                : Files.newBufferedWriter(output, StandardCharsets.UTF_8), 1 << 16), false);
        try (RecordSource source = recording.open(spec.commandLine())) {
            AuditOutput rendering = switch (format) {
                case text -> new AuditText(out, decision);
                case json -> new AuditJson(out, decision);
                case html -> new AuditHtml(out, source.describe());
            };
            boolean[] found = {false};
            Auditor auditor = new Auditor(new Auditor.Listener() {
                @Override
                public void chain(Chain chain) {
                    found[0] |= chain.decision().id().equals(decision);
                    rendering.chain(chain);
                }

                @Override
                public void flag(Flag flag) {
                    rendering.flag(flag);
                }
            }, new Auditor.Options(silence, Auditor.Options.DEFAULTS.edge(), decision != null));
            if (!recording.readEvents(source, auditor::accept, spec.commandLine())) {
                return 2;
            }
            Auditor.Totals totals = auditor.finish();
            rendering.finish(totals);
            if (decision != null && !found[0]) {
                spec.commandLine().getErr().println("rayscale audit: decision " + decision + " is not in the recording (or not in the selection)");
                return 1;
            }
            if (output != null) {
                spec.commandLine().getOut().println(AuditOutput.line(totals));
                spec.commandLine().getOut().flush();
            }
            return totals.complete() ? 0 : 1;
        } finally {
            if (output != null) {
                out.close();
            } else {
                out.flush();
            }
        }
    }
}
