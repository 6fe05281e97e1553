package dev.rayscale.cli;

import dev.rayscale.audit.BuildInfo;
import dev.rayscale.audit.PolicyOverrides;
import dev.rayscale.audit.RecordSource;
import dev.rayscale.audit.Replayer;
import dev.rayscale.audit.WhatIf;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code ./rayscale what-if --set KEY=VALUE}: the recorded snapshots planned under a changed policy, beside what was recorded. */
@Command(name = "what-if", mixinStandardHelpOptions = true,
        description = {"Plans the recorded snapshots again under a changed policy and reports, beside what was recorded: the "
                + "decisions that differ, each group's peak and integrated target replicas (replica-seconds) and the time from "
                + "demand to the first decision that grows the cluster for it. Open loop: the recorded observations, not a "
                + "re-simulated cluster (for a closed loop on a demo workload: ./rayscale demo --scenario S --set KEY=VALUE).",
            "KEY: a field of a snapshot's policy (upscalingMode, upscalingSpeed, idleTimeoutSeconds, maxWorkers, maxPendingLaunches, "
                + "pendingPodPatienceSeconds, replaceStuckPods, packing), group.NAME.FIELD (minReplicas, maxReplicas, "
                + "idleTimeoutSeconds, nodeCost, ...; NAME * for every group) or planner.FIELD (decisionTtlMillis, "
                + "maxPendingLaunches, pendingPodPatienceMillis, packing)."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:compared", "2:bad input (arguments, an unreadable file, no broker)"})
public class WhatIfCommand implements Callable<Integer> {

    @Mixin
    RecordingOptions recording;

    @Option(names = "--set", required = true, paramLabel = "KEY=VALUE", description = "A policy change (repeatable).")
    List<String> settings;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        PolicyOverrides overrides;
        try {
            overrides = PolicyOverrides.parse(settings);
        } catch (IllegalArgumentException bad) {
            throw new ParameterException(spec.commandLine(), bad.getMessage());
        }
        WhatIf whatIf = new WhatIf();
        Replayer replayer = new Replayer(overrides, BuildInfo.plannerVersion(), whatIf, true);
        try (RecordSource source = recording.open(spec.commandLine())) {
            boolean read;
            try {
                read = recording.readEvents(source, replayer::accept, spec.commandLine());
            } catch (IllegalArgumentException invalid) {
                throw new ParameterException(spec.commandLine(), invalid.getMessage());
            }
            if (!read) {
                return 2;
            }
        }
        replayer.finish();
        whatIf.print(spec.commandLine().getOut(), overrides);
        return 0;
    }
}
