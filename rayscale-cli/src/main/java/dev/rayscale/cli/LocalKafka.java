package dev.rayscale.cli;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/** A real Kafka broker as a local process (scripts/kafka-broker.sh), on a port of the command's own. */
final class LocalKafka implements AutoCloseable {

    static final int PORT = 19192;

    private final Path root;
    private final Path work;
    private final String bootstrapServers;
    private boolean stopped;

    private LocalKafka(Path root, Path work) {
        this.root = root;
        this.work = work;
        this.bootstrapServers = run("start").trim();
    }

    static LocalKafka start(Path root, Path work) {
        return new LocalKafka(root, work);
    }

    String bootstrapServers() {
        return bootstrapServers;
    }

    @Override
    public synchronized void close() {
        if (!stopped) {
            stopped = true;
            run("stop");
        }
    }

    private String run(String action) {
        ProcessBuilder builder = new ProcessBuilder("bash", root.resolve("scripts/kafka-broker.sh").toString(), action)
                .redirectError(ProcessBuilder.Redirect.INHERIT);
        builder.environment().put("RAYSCALE_KAFKA_PORT", String.valueOf(PORT));
        builder.environment().put("RAYSCALE_KAFKA_DIR", work.resolve("kafka").toString());
        try {
            Process process = builder.start();
            String output;
            try (BufferedReader reader = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                output = reader.lines().reduce("", (a, b) -> a + b + "\n");
            }
            if (!process.waitFor(120, TimeUnit.SECONDS) || process.exitValue() != 0) {
                throw new IllegalStateException("scripts/kafka-broker.sh " + action + " failed");
            }
            return output;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }
}
