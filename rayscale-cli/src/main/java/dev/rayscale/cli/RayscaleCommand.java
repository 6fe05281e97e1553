package dev.rayscale.cli;

import io.quarkus.picocli.runtime.annotations.TopCommand;
import picocli.CommandLine.Command;

/** {@code ./rayscale}: the Rayscale command line. */
@TopCommand
@Command(name = "rayscale", mixinStandardHelpOptions = true, version = "rayscale 0.1.0",
        description = "Event-driven autoscaling for Ray clusters on Kubernetes.",
        subcommands = {PlanCommand.class, DemoCommand.class, BenchCommand.class, ExportCommand.class, AuditCommand.class, ReplayCommand.class, WhatIfCommand.class, TuneCommand.class,
            BenchCollectorCommand.class, BenchAuditCommand.class, BenchTuneCommand.class})
public class RayscaleCommand {
}
