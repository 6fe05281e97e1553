package dev.rayscale.demo;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A real Kafka broker as a local process (scripts/kafka-broker.sh), on a port and in a folder of the
 * caller's own; it can be crashed (SIGKILL) and resumed on the same data, as a broker restart is.
 */
public final class BrokerProcess implements AutoCloseable {

    private final Path root;
    private final Path folder;
    private final int port;
    private final Map<String, String> settings;
    private final int niceness;
    private final String bootstrapServers;
    private boolean stopped;

    private BrokerProcess(Path root, Path folder, int port, Map<String, String> settings, int niceness) {
        this.root = root;
        this.folder = folder;
        this.port = port;
        this.settings = Map.copyOf(settings);
        this.niceness = niceness;
        this.bootstrapServers = run("start").trim();
    }

    /** A fresh broker on {@code port}, its data in {@code folder}. */
    public static BrokerProcess start(Path root, Path folder, int port) {
        return new BrokerProcess(root, folder, port, Map.of(), 0);
    }

    /**
     * As {@link #start(Path, Path, int)}, the broker's nice value raised by {@code niceness} (as {@code nice -n}): this
     * machine's CPU goes first to the process that starts it (see {@link RayscaleServices#yieldingTo}).
     */
    public static BrokerProcess yielding(Path root, Path folder, int port, int niceness) {
        return new BrokerProcess(root, folder, port, Map.of(), niceness);
    }

    /**
     * As {@link #start(Path, Path, int)}, with the script's further settings ({@code RAYSCALE_KAFKA_EXTRA_PROPERTIES},
     * {@code RAYSCALE_KAFKA_SCRAM}): listeners with TLS or SASL, users.
     */
    public static BrokerProcess start(Path root, Path folder, int port, Map<String, String> settings) {
        return new BrokerProcess(root, folder, port, settings, 0);
    }

    public String bootstrapServers() {
        return bootstrapServers;
    }

    /** SIGKILL: no chance to flush or hand over; the data on disk stays. */
    public synchronized void crash() {
        run("kill");
    }

    /** Starts again on the data a crash left. */
    public synchronized void resume() {
        run("resume");
    }

    @Override
    public synchronized void close() {
        if (!stopped) {
            stopped = true;
            run("stop");
        }
    }

    private String run(String action) {
        List<String> command = new ArrayList<>(niceness > 0 ? List.of("nice", "-n", String.valueOf(niceness)) : List.of());
        command.addAll(List.of("bash", root.resolve("scripts/kafka-broker.sh").toString(), action));
        ProcessBuilder builder = new ProcessBuilder(command)
                .redirectError(ProcessBuilder.Redirect.INHERIT);
        builder.environment().put("RAYSCALE_KAFKA_PORT", String.valueOf(port));
        builder.environment().put("RAYSCALE_KAFKA_DIR", folder.toString());
        builder.environment().putAll(settings);
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
