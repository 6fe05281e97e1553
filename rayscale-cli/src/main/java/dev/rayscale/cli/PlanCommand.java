package dev.rayscale.cli;

import com.fasterxml.jackson.databind.ObjectWriter;
import dev.rayscale.events.ClusterSnapshot;
import dev.rayscale.events.ScaleDecision;
import dev.rayscale.events.codec.EventCodec;
import dev.rayscale.events.codec.EventJson;
import dev.rayscale.events.codec.InvalidEventException;
import dev.rayscale.planner.core.Planner;
import dev.rayscale.planner.core.PlannerSettings;
import dev.rayscale.scenarios.RayAnswer;
import dev.rayscale.scenarios.Scenario;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code ./rayscale plan}: runs the planner on one input and prints its answer. */
@Command(name = "plan", mixinStandardHelpOptions = true,
        description = {"Plans one cluster situation and prints the result as JSON on stdout.",
            "A --scenario (planner-scenarios format) prints Ray v2's reply fields: nodes_to_launch, to_terminate and the "
                + "infeasible requests. A --snapshot (a rayscale.snapshots event) prints the scale decision event."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:planned", "1:the input could not be read", "2:wrong usage"})
public class PlanCommand implements Callable<Integer> {

    static class Input {
        @Option(names = "--scenario", paramLabel = "FILE", description = "A planner scenario (see planner-scenarios/FORMAT.md).")
        Path scenario;

        @Option(names = "--snapshot", paramLabel = "FILE", description = "A cluster snapshot event (JSON).")
        Path snapshot;
    }

    @ArgGroup(exclusive = true, multiplicity = "1")
    Input input;

    @Option(names = "--ignore-upscaling-speed",
            description = "Scenario only: plan without any launch-rate limit (the pure bin-packing answer).")
    boolean ignoreUpscalingSpeed;

    @Option(names = "--bench", paramLabel = "N",
            description = "Also plan the input N times after a warm-up and print 'plan median_ms=... p99_ms=...' on stderr.")
    int bench;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws IOException {
        ClusterSnapshot snapshot;
        try {
            snapshot = input.scenario != null
                    ? Scenario.read(input.scenario).snapshot(ignoreUpscalingSpeed)
                    : EventCodec.SNAPSHOTS.decode(Files.readAllBytes(input.snapshot));
        } catch (IOException | InvalidEventException | IllegalArgumentException unreadable) {
            spec.commandLine().getErr().println("rayscale plan: cannot read " + (input.scenario != null ? input.scenario : input.snapshot)
                    + ": " + unreadable.getMessage());
            return 1;
        }
        Planner planner = new Planner(PlannerSettings.defaults(PlanCommand.class.getPackage().getImplementationVersion() == null
                ? "dev" : PlanCommand.class.getPackage().getImplementationVersion()));
        ScaleDecision decision = planner.plan(snapshot);
        PrintWriter out = spec.commandLine().getOut();
        ObjectWriter writer = EventJson.mapper().writerWithDefaultPrettyPrinter();
        out.println(input.scenario != null ? writer.writeValueAsString(RayAnswer.of(decision)) : writer.writeValueAsString(decision));
        out.flush();
        if (bench > 0) {
            spec.commandLine().getErr().println(PlanBench.run(planner, snapshot, bench));
        }
        return 0;
    }
}
