package dev.rayscale.cli;

import dev.rayscale.audit.Exporter;
import dev.rayscale.audit.RecordSource;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code ./rayscale export}: the recorded topics as an archive file, one CloudEvent per line. */
@Command(name = "export", mixinStandardHelpOptions = true,
        description = {"Writes the snapshots, decisions, actuation results and dead-letter records of the selection as CloudEvents "
                + "in JSON structured mode, one per line, in time order (each cluster's events in their own order). Every other "
                + "command reads the file as it reads Kafka (--file). Last line:",
            "  export: records=N problems=P file=FILE"},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:exported", "1:some lines of an input file were not records (reported, skipped)", "2:bad input"})
public class ExportCommand implements Callable<Integer> {

    @Mixin
    RecordingOptions recording;

    @Option(names = {"--output", "-o"}, required = true, paramLabel = "FILE", description = "The export file; gzip-compressed when it ends in .gz.")
    Path output;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        long[] problems = new long[1];
        recording.refuseAsOutput(output, spec.commandLine());
        try (RecordSource source = recording.open(spec.commandLine()); Exporter exporter = new Exporter(output)) {
            boolean read = RecordingOptions.readAll(source, record -> {
                if (record.problem() != null) {
                    problems[0]++;
                    err.println("rayscale export: skipped " + record.problem());
                }
                exporter.write(record);
            }, spec.commandLine());
            if (!read) {
                return 2;
            }
            out.println("export: records=" + exporter.written() + " problems=" + problems[0] + " file=" + output);
        }
        out.flush();
        return problems[0] == 0 ? 0 : 1;
    }
}
