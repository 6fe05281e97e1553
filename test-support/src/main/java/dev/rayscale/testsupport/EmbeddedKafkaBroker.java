package dev.rayscale.testsupport;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.stream.Stream;
import org.apache.kafka.common.test.KafkaClusterTestKit;
import org.apache.kafka.common.test.TestKitNodes;
import org.apache.kafka.common.utils.Exit;

/**
 * A real single-node Kafka broker (KRaft, combined broker and controller) running inside this JVM,
 * for machines without a Docker engine. Ready in a few seconds.
 *
 * <p>Its data lives in a folder of its own that only {@link #close()} deletes, after the broker has
 * stopped. Kafka's test kit would otherwise create the folder with a JVM shutdown hook that deletes
 * it; that hook runs concurrently with whatever hook closes the broker, so at JVM exit the folder could
 * vanish under a broker still writing, Kafka then takes its log directory as failed and halts the
 * JVM with status 1 after every test had passed (surefire: "Error occurred in starting fork").
 */
public final class EmbeddedKafkaBroker implements AutoCloseable {

    /** The broker logs some 1,500 lines at INFO; held here so the level survives garbage collection. */
    private static final List<Logger> QUIETED = Stream.of("kafka", "org.apache.kafka", "state.change.logger")
            .map(Logger::getLogger).toList();

    /** A folder (surefire's reports) for the report of a halt; set by the build. */
    static final String REPORTS_PROPERTY = "rayscale.test.reports";

    private final KafkaClusterTestKit cluster;
    private final Path directory;

    private EmbeddedKafkaBroker(KafkaClusterTestKit cluster, Path directory) {
        this.cluster = cluster;
        this.directory = directory;
    }

    public static EmbeddedKafkaBroker start() {
        QUIETED.forEach(logger -> logger.setLevel(Level.WARNING));
        explainHalts();
        Path directory;
        try {
            directory = Files.createTempDirectory("rayscale-test-kafka-");
        } catch (IOException e) {
            throw new UncheckedIOException("could not create a folder for the in-JVM Kafka broker", e);
        }
        try {
            KafkaClusterTestKit cluster = new KafkaClusterTestKit.Builder(new TestKitNodes.Builder()
                            .setBaseDirectory(directory)
                            .setCombined(true)
                            .setNumBrokerNodes(1)
                            .setNumControllerNodes(1)
                            .build())
                    .setConfigProp("offsets.topic.replication.factor", "1")
                    .setConfigProp("offsets.topic.num.partitions", "1")
                    .setConfigProp("transaction.state.log.replication.factor", "1")
                    .setConfigProp("transaction.state.log.min.isr", "1")
                    .setConfigProp("share.coordinator.state.topic.replication.factor", "1")
                    .setConfigProp("share.coordinator.state.topic.min.isr", "1")
                    .setConfigProp("group.initial.rebalance.delay.ms", "0")
                    .setConfigProp("num.partitions", "3")
                    .setDeleteOnClose(true)
                    .build();
            cluster.format();
            cluster.startup();
            cluster.waitForReadyBrokers();
            return new EmbeddedKafkaBroker(cluster, directory);
        } catch (Exception e) {
            throw new IllegalStateException("could not start the in-JVM Kafka broker", e);
        }
    }

    /**
     * Kafka halts the JVM on faults it deems fatal (a failed log directory, say). In a test JVM that
     * looks like a crash with no explanation, so the caller's stack is printed first; the halt itself
     * still happens, with Kafka's status.
     */
    private static void explainHalts() {
        Exit.setHaltProcedure((status, message) -> {
            StringWriter trace = new StringWriter();
            new IllegalStateException("the in-JVM Kafka broker halts this JVM with status " + status + ": " + message)
                    .printStackTrace(new PrintWriter(trace));
            System.err.print(trace);
            System.err.flush();
            String reports = System.getProperty(REPORTS_PROPERTY);
            if (reports != null) {
                try {
                    Files.createDirectories(Path.of(reports));
                    Files.writeString(Path.of(reports, "kafka-halt-" + ProcessHandle.current().pid() + ".txt"), trace.toString());
                } catch (IOException | RuntimeException unwritable) {
                    System.err.println("could not write the halt report to " + reports + ": " + unwritable);
                }
            }
            Runtime.getRuntime().halt(status);
        });
    }

    public String bootstrapServers() {
        return cluster.bootstrapServers();
    }

    /** The folder holding the broker's logs and metadata; gone once {@link #close()} returns. */
    public Path directory() {
        return directory;
    }

    /** Stops the broker, then deletes its data. */
    @Override
    public void close() {
        try {
            cluster.close();
        } catch (Exception e) {
            throw new IllegalStateException("could not stop the in-JVM Kafka broker", e);
        }
    }
}
