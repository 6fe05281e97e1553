package dev.rayscale.cli;

import dev.rayscale.audit.BuildInfo;
import dev.rayscale.audit.PolicyOverrides;
import dev.rayscale.audit.Read;
import dev.rayscale.audit.RecordSource;
import dev.rayscale.audit.Replayer;
import dev.rayscale.events.ClusterSnapshot;
import dev.rayscale.events.ScaleDecision;
import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code ./rayscale replay --verify}: the recorded decisions, planned again by this build and compared field by field. */
@Command(name = "replay", mixinStandardHelpOptions = true,
        description = {"Plans every recorded snapshot again with the planner of this build and the policy the recorded decision "
                + "used (its planner defaults and the snapshot's own policy), and compares each new decision with the recorded one "
                + "field by field. A difference is expected when the recording came from another planner version or policy "
                + "(listed); with the same version and policy it is non-determinism, a defect. Last line:",
            "  replay: snapshots=N decisions=M identical=I different=D unexplained=U"},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:every difference is explained", "1:unexplained differences, or unreadable records (with --verify)",
            "2:bad input (arguments, an unreadable file, no broker)"})
public class ReplayCommand implements Callable<Integer> {

    @Mixin
    RecordingOptions recording;

    @Option(names = "--verify", description = "Fail (exit 1) on any unexplained difference or unreadable record.")
    boolean verify;

    @Option(names = "--verbose", description = "Also print every identical decision.")
    boolean verbose;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        String version = BuildInfo.plannerVersion();
        Replayer replayer = new Replayer(PolicyOverrides.parse(List.of()), version, new Replayer.Listener() {
            @Override
            public void compared(Replayer.Comparison comparison) {
                if (comparison.verdict() == Replayer.Verdict.IDENTICAL && !verbose) {
                    return;
                }
                out.println(comparison.verdict() + "  " + comparison.cluster() + "  decision " + comparison.recorded().id() + " at "
                        + comparison.position() + ": " + comparison.explanation());
                comparison.differences().forEach(difference -> out.println("    " + difference));
            }

            @Override
            public void unanswered(ClusterSnapshot snapshot, ScaleDecision replayed) {
                if (replayed.worthPublishing() && verbose) {
                    out.println("UNPUBLISHED  " + snapshot.cluster().id() + "  snapshot " + snapshot.sequence() + ": no decision was recorded; "
                            + "this build would publish one (the planner skips a snapshot that is past the decision TTL when it arrives)");
                }
            }

            @Override
            public void unreadable(Read.Unreadable record) {
                out.println("UNREADABLE  " + record.origin().position() + ": " + record.reason());
            }
        }, recording.strict);
        try (RecordSource source = recording.open(spec.commandLine())) {
            if (!recording.readEvents(source, replayer::accept, spec.commandLine())) {
                return 2;
            }
        }
        Replayer.Counts counts = replayer.finish();
        out.println("planner: this build " + version);
        counts.explained.forEach((why, count) -> out.println("explained: " + count + " decision(s) " + why));
        if (counts.noSnapshot > 0) {
            out.println("not re-planned: " + counts.noSnapshot + " decision(s) whose snapshot is not in the recording");
        }
        if (!recording.strict) {
            out.println("snapshots no decision answered were not planned again (--strict plans them too, and checks every record "
                    + "against its schema)");
        } else if (counts.unpublished > 0) {
            out.println("unpublished: " + counts.unpublished + " snapshot(s) got no decision although this build would publish one "
                    + "(skipped past the decision TTL on arrival, or lost; see audit)");
        }
        if (counts.unreadable > 0) {
            out.println("unreadable: " + counts.unreadable + " record(s) skipped");
        }
        out.println(counts.line());
        out.flush();
        return verify && (counts.unexplained > 0 || counts.unreadable > 0) ? 1 : 0;
    }
}
