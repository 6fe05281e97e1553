package dev.rayscale.testsupport;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.logging.Logger;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.kafka.KafkaContainer;

/**
 * The one real Kafka broker a test JVM uses, chosen in this order:
 * <ol>
 *   <li>an external broker named by the system property {@value #BOOTSTRAP_PROPERTY} or the
 *       environment variable {@value #BOOTSTRAP_ENV} (what {@code .ci/run} and repeated local runs use);</li>
 *   <li>Testcontainers' Kafka, when a Docker engine answers;</li>
 *   <li>otherwise a single-node KRaft broker inside this JVM.</li>
 * </ol>
 * Started on first use, shared by every test class in the JVM, closed when the JVM exits.
 */
public final class TestKafka {

    public static final String BOOTSTRAP_PROPERTY = "rayscale.test.kafka.bootstrap-servers";
    public static final String BOOTSTRAP_ENV = "RAYSCALE_TEST_KAFKA_BOOTSTRAP_SERVERS";
    /** Set to {@code embedded} to skip the Docker probe and go straight to the in-JVM broker. */
    public static final String MODE_PROPERTY = "rayscale.test.kafka.mode";
    /** Where a started broker's address is kept, so that a class loaded again (Quarkus restarts) finds it. */
    private static final String STARTED_PROPERTY = "rayscale.test.kafka.started";
    private static final String KAFKA_IMAGE = "apache/kafka:4.1.2";

    private static final Logger LOG = Logger.getLogger(TestKafka.class.getName());

    private TestKafka() {
    }

    /** The bootstrap servers of the shared broker, starting it if this JVM has none yet. */
    public static synchronized String bootstrapServers() {
        String started = System.getProperty(STARTED_PROPERTY);
        if (started != null) {
            return started;
        }
        String bootstrap = external();
        if (bootstrap == null) {
            bootstrap = !"embedded".equals(System.getProperty(MODE_PROPERTY)) && dockerAvailable() ? startContainer() : startEmbedded();
        } else {
            LOG.info(() -> "Kafka for tests: external broker at " + System.getProperty(BOOTSTRAP_PROPERTY, System.getenv(BOOTSTRAP_ENV)));
        }
        System.setProperty(STARTED_PROPERTY, bootstrap);
        return bootstrap;
    }

    private static String external() {
        String named = System.getProperty(BOOTSTRAP_PROPERTY);
        if (named == null || named.isBlank()) {
            named = System.getenv(BOOTSTRAP_ENV);
        }
        return named == null || named.isBlank() ? null : named.trim();
    }

    /** Asks Testcontainers only where an engine can exist: the probe itself costs seconds and logs an error. */
    private static boolean dockerAvailable() {
        boolean socket = Files.exists(Path.of("/var/run/docker.sock"));
        String host = System.getenv("DOCKER_HOST");
        if (!socket && (host == null || host.isBlank())) {
            return false;
        }
        try {
            return DockerClientFactory.instance().isDockerAvailable();
        } catch (RuntimeException | LinkageError probeFailed) {
            return false;
        }
    }

    private static String startContainer() {
        KafkaContainer container = new KafkaContainer(KAFKA_IMAGE);
        container.start();
        Runtime.getRuntime().addShutdownHook(new Thread(container::stop, "test-kafka-container-stop"));
        LOG.info(() -> "Kafka for tests: Testcontainers " + KAFKA_IMAGE + " at " + container.getBootstrapServers());
        return container.getBootstrapServers();
    }

    /** The broker stops, then its data goes, in this one shutdown hook: nothing else deletes its folder. */
    private static String startEmbedded() {
        EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.start();
        Runtime.getRuntime().addShutdownHook(new Thread(broker::close, "test-kafka-embedded-stop"));
        LOG.info(() -> "Kafka for tests: in-JVM KRaft broker at " + broker.bootstrapServers());
        return broker.bootstrapServers();
    }
}
