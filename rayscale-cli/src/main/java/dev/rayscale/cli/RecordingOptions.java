package dev.rayscale.cli;

import dev.rayscale.audit.EventReader;
import dev.rayscale.audit.FileRecords;
import dev.rayscale.audit.KafkaRecords;
import dev.rayscale.audit.Read;
import dev.rayscale.audit.RecordSource;
import dev.rayscale.audit.Recorded;
import dev.rayscale.audit.Selection;
import dev.rayscale.audit.Times;
import dev.rayscale.events.ClusterRef;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Properties;
import java.util.function.Consumer;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.common.KafkaException;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/** Where a recording is read from (a Kafka cluster or an export file) and which part of it: shared by export, audit, replay and what-if. */
final class RecordingOptions {

    static final class Source {
        @Option(names = "--bootstrap-servers", paramLabel = "HOST:PORT[,...]", description = "Read Rayscale's topics from this Kafka cluster.")
        String bootstrapServers;

        @Option(names = "--file", paramLabel = "FILE", description = "Read an export file (.jsonl or .jsonl.gz) instead.")
        Path file;
    }

    @ArgGroup(exclusive = true, multiplicity = "1")
    Source source;

    @Option(names = "--command-config", paramLabel = "FILE",
            description = "Kafka client properties (security.protocol, sasl.*, ssl.*), as Kafka's own tools take them.")
    Path commandConfig;

    @Option(names = "--cluster", paramLabel = "NAMESPACE/NAME", description = "Only this cluster (repeatable; default: every cluster).")
    List<String> clusters = new ArrayList<>();

    @Option(names = "--from", paramLabel = "TIME", description = "Records written at or after TIME: ISO-8601 (2026-11-30T02:00:00Z, "
            + "2026-11-30) or back from now (-2h, -30m, -7d). On Kafka, found by the broker's offsets for times.")
    String from;

    @Option(names = "--to", paramLabel = "TIME", description = "Records written before TIME (same forms as --from).")
    String to;

    @Option(names = "--strict", description = "Check every record against its event's JSON Schema, as the consuming service does "
            + "(about half the speed). Without it the JSON, the schema version, the CloudEvents headers, the key and every field "
            + "the events require are still checked; what a service could not read is on its dead-letter topic, which is reported.")
    boolean strict;

    /** Reads every selected record as an event into {@code sink}, on every core and in order; see {@link #readAll}. */
    boolean readEvents(RecordSource source, Consumer<Read> sink, picocli.CommandLine commandLine) {
        return reading(source, () -> source.forEachRead(new EventReader(strict), sink), commandLine);
    }

    /**
     * Reads every selected record into {@code sink}; false (having said why on the error stream) when the source
     * cannot be read: no broker, a file that cannot be opened.
     */
    static boolean readAll(RecordSource source, Consumer<Recorded> sink, picocli.CommandLine commandLine) {
        return reading(source, () -> source.forEach(sink), commandLine);
    }

    /** Reading the source, as one of its forEach; false when it cannot be read. */
    private interface Reading {
        void run() throws IOException;
    }

    private static boolean reading(RecordSource source, Reading reading, picocli.CommandLine commandLine) {
        try {
            reading.run();
            return true;
        } catch (IOException | KafkaException | IllegalStateException unreadable) {
            commandLine.getErr().println("rayscale " + commandLine.getCommandName() + ": cannot read " + source.describe() + ": "
                    + unreadable.getMessage());
            commandLine.getErr().flush();
            return false;
        }
    }

    /**
     * Refuses an output that is the recording being read (exit status 2): opening it for writing empties it before a line is
     * read, and the command would then report an empty recording.
     */
    void refuseAsOutput(Path output, picocli.CommandLine commandLine) {
        if (output == null || source.file == null || !Files.exists(output)) {
            return;
        }
        try {
            if (Files.isSameFile(output, source.file)) {
                throw new ParameterException(commandLine, "the output " + output + " is the recording --file reads; writing it would destroy it");
            }
        } catch (IOException unreadable) {
            // Then the file cannot be read as the recording either, which open() says.
        }
    }

    /** Opens the source; a problem with the arguments is a {@link ParameterException} (exit status 2). */
    RecordSource open(picocli.CommandLine commandLine) {
        Instant now = Instant.now();
        Selection selection;
        try {
            for (String cluster : clusters) {
                ClusterRef.parse(cluster);
            }
            selection = new Selection(new HashSet<>(clusters), from == null ? null : Times.parse(from, now), to == null ? null : Times.parse(to, now));
        } catch (IllegalArgumentException bad) {
            throw new ParameterException(commandLine, bad.getMessage());
        }
        if (source.file != null) {
            if (!Files.isReadable(source.file)) {
                throw new ParameterException(commandLine, "cannot read " + source.file);
            }
            return new FileRecords(source.file, selection);
        }
        Properties client = new Properties();
        if (commandConfig != null) {
            try (InputStream in = Files.newInputStream(commandConfig)) {
                client.load(in);
            } catch (IOException unreadable) {
                throw new ParameterException(commandLine, "cannot read --command-config " + commandConfig + ": " + unreadable.getMessage());
            }
        }
        client.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, source.bootstrapServers);
        return new KafkaRecords(client, selection);
    }
}
