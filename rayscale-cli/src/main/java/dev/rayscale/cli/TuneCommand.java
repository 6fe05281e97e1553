package dev.rayscale.cli;

import dev.rayscale.audit.BuildInfo;
import dev.rayscale.audit.RecordSource;
import dev.rayscale.planner.core.PlannerSettings;
import dev.rayscale.sim.Workload;
import dev.rayscale.tune.Objective;
import dev.rayscale.tune.TuneHtml;
import dev.rayscale.tune.TuneJson;
import dev.rayscale.tune.TuneReport;
import dev.rayscale.tune.Tuner;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code ./rayscale tune}: a cluster's recorded workload replayed closed-loop under other policies, and one recommended. */
@Command(name = "tune", mixinStandardHelpOptions = true,
        description = {"Reconstructs the workload behind a cluster's recorded snapshots, replays it on the simulated cluster with "
                + "the planner in process (closed loop, in simulated time) under the recorded policy and a grid of others, and "
                + "recommends one: calibration first (the recorded policy's replay against the recording; above 10% nothing is "
                + "recommended), then each policy's worker-seconds, cost, task wait p50/p95/max, cold starts and scale events, "
                + "the Pareto front of cost against wait p95, and the pick of the objective.",
            "KEY: as what-if --set names it (idleTimeoutSeconds, upscalingMode, upscalingSpeed, group.NAME.minReplicas, "
                + "planner.packing, ...)."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:tuned (with or without a recommendation)", "2:bad input (arguments, an unreadable file, no broker, "
                + "no snapshots of the cluster)"})
public class TuneCommand implements Callable<Integer> {

    @Mixin
    RecordingOptions recording;

    @Option(names = "--grid", paramLabel = "KEY=V1,V2,...", description = "Values to try for a key (repeatable; every combination "
            + "is tried). Default: idleTimeoutSeconds=15,30,60,120,300 and upscalingMode=CONSERVATIVE,DEFAULT.")
    List<String> grid = new ArrayList<>();

    /** What is recommended: an objective or a wait budget, not both. */
    static final class Aim {
        @Option(names = "--objective", paramLabel = "cost|wait|balanced",
                description = "What the recommendation optimises on the Pareto front (default: balanced).")
        String objective;

        @Option(names = "--wait-budget", paramLabel = "SECONDS", description = "Instead of --objective: the lowest cost whose wait p95 "
                + "is within SECONDS.")
        Double waitBudget;
    }

    @ArgGroup(exclusive = true)
    Aim aim = new Aim();

    @Option(names = "--json", paramLabel = "FILE", description = "Also write the report as JSON.")
    Path json;

    @Option(names = "--html", paramLabel = "FILE", description = "Also write the report as an HTML page with a chart of the front.")
    Path html;

    @Option(names = "--workload", paramLabel = "FILE", description = "Only reconstruct: write the workload behind the recording as a "
            + "scenario (YAML; ./rayscale demo --scenario FILE replays it through the services) and replay nothing.")
    Path workload;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws IOException {
        Tuner tuner;
        try {
            tuner = new Tuner(grid, Objective.of(aim.objective == null ? "balanced" : aim.objective, aim.waitBudget));
        } catch (IllegalArgumentException bad) {
            throw new ParameterException(spec.commandLine(), bad.getMessage());
        }
        for (Path output : Arrays.asList(json, html, workload)) {
            recording.refuseAsOutput(output, spec.commandLine());
            Path folder = output == null ? null : output.toAbsolutePath().getParent();
            if (folder != null && !Files.isDirectory(folder)) {
                throw new ParameterException(spec.commandLine(), "cannot write " + output + ": no folder " + folder);
            }
        }
        try (RecordSource source = recording.open(spec.commandLine())) {
            if (!recording.readEvents(source, tuner::read, spec.commandLine())) {
                return 2;
            }
        }
        List<String> clusters = tuner.clusters();
        if (clusters.size() != 1) {
            spec.commandLine().getErr().println("rayscale tune: " + (clusters.isEmpty() ? "the recording holds no snapshots"
                    : "the recording holds " + clusters.size() + " clusters (" + String.join(", ", clusters) + "); name one with --cluster"));
            return 2;
        }
        TuneReport report;
        try {
            if (workload != null) {
                Workload reconstructed = tuner.workload(clusters.get(0));
                try {
                    reconstructed.write(workload);
                } catch (UncheckedIOException unwritable) {
                    spec.commandLine().getErr().println("rayscale tune: " + unwritable.getMessage());
                    return 2;
                }
                spec.commandLine().getOut().printf(Locale.ROOT, "tune: workload=%s events=%d seconds=%.0f%n", workload,
                        reconstructed.events().size(), reconstructed.maxSeconds());
                return 0;
            }
            report = tuner.tune(clusters.get(0), PlannerSettings.defaults(BuildInfo.plannerVersion()));
        } catch (IllegalArgumentException unusable) {
            spec.commandLine().getErr().println("rayscale tune: " + unusable.getMessage());
            return 2;
        }
        report.print(spec.commandLine().getOut());
        try {
            if (json != null) {
                TuneJson.write(report, json);
            }
            if (html != null) {
                TuneHtml.write(report, html);
            }
        } catch (IOException unwritable) {
            spec.commandLine().getErr().println("rayscale tune: cannot write the report: " + unwritable.getMessage());
            return 2;
        }
        return 0;
    }
}
