package dev.rayscale.testsupport;

import static org.assertj.core.api.Assertions.assertThat;

import io.smallrye.reactive.messaging.kafka.companion.KafkaCompanion;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;

/** The path CI takes where no Docker engine exists: a real broker inside the test JVM. */
class EmbeddedKafkaBrokerTest {

    @Test
    void carriesRecordsKeyedAndInOrder() {
        try (EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.start();
                KafkaCompanion companion = new KafkaCompanion(broker.bootstrapServers())) {
            companion.topics().createAndWait("probe", 3);

            companion.produceStrings().fromRecords(
                    new ProducerRecord<>("probe", "ns/a", "1"),
                    new ProducerRecord<>("probe", "ns/a", "2"),
                    new ProducerRecord<>("probe", "ns/a", "3")).awaitCompletion(Duration.ofSeconds(30));

            var records = companion.consumeStrings().fromTopics("probe", 3).awaitCompletion(Duration.ofSeconds(30)).getRecords();
            assertThat(records).extracting(r -> r.key() + "=" + r.value()).containsExactly("ns/a=1", "ns/a=2", "ns/a=3");
            assertThat(records).extracting(r -> r.partition()).containsOnly(records.get(0).partition());
        }
    }

    /**
     * Kafka's test kit, left to itself, keeps its data in a {@code kafka-*} temporary folder that a JVM
     * shutdown hook of its own deletes, racing the hook that stops the broker: the cause of test JVMs
     * halted with status 1 after all their tests passed. The broker's folder must be its own, deleted
     * by {@code close()} once the broker has stopped.
     */
    @Test
    void keepsItsDataInItsOwnFolderAndDeletesItOnlyAfterStopping() throws IOException {
        Set<Path> kafkaFoldersBefore = kafkaTempFolders();
        Path directory;
        try (EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.start()) {
            directory = broker.directory();
            assertThat(kafkaTempFolders()).as("no folder a Kafka shutdown hook would delete").isEqualTo(kafkaFoldersBefore);
            assertThat(directory).isDirectory();
        }
        assertThat(directory).doesNotExist();
    }

    /**
     * A JVM that ran the broker exits as surefire's forked JVMs do ({@code System.exit(0)}, so that the
     * shutdown hooks run) while its broker takes seconds to stop, as a loaded broker does: the exit
     * status must be 0 and the broker's data gone. With the test kit's own temporary folder, deleted by
     * a hook of Kafka's while the broker still runs, Kafka halts this JVM with status 1.
     */
    @Test
    void aJvmWhoseBrokerStopsSlowlyStillExitsCleanly() throws Exception {
        Path output = Files.createTempFile("broker-exit", ".log");
        Process jvm = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx512m",
                "-cp", System.getProperty("surefire.test.class.path", System.getProperty("java.class.path")),
                BrokerThenExit.class.getName())
                .redirectErrorStream(true).redirectOutput(output.toFile()).start();
        boolean ended = jvm.waitFor(120, TimeUnit.SECONDS);
        if (!ended) {
            jvm.destroyForcibly();
        }
        String log = Files.readString(output);
        assertThat(ended).as("the JVM ends; output:%n%s", log).isTrue();
        assertThat(jvm.exitValue()).as("exit status; output:%n%s", log).isZero();
        Path directory = Path.of(log.lines().filter(line -> line.startsWith("data: ")).findFirst().orElseThrow().substring(6));
        assertThat(directory).doesNotExist();
    }

    private static Set<Path> kafkaTempFolders() throws IOException {
        try (Stream<Path> entries = Files.list(Path.of(System.getProperty("java.io.tmpdir")))) {
            return entries.filter(path -> path.getFileName().toString().startsWith("kafka-")).collect(Collectors.toSet());
        }
    }

    /** Starts a broker, uses it, and exits; the broker is stopped by a shutdown hook that takes its time. */
    public static final class BrokerThenExit {
        /** Longer than the broker's 5-second checkpoint interval: a write to its folder falls in the window. */
        private static final long SLOW_STOP_MILLIS = 7_000;

        public static void main(String[] args) {
            EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.start();
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                try {
                    Thread.sleep(SLOW_STOP_MILLIS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                broker.close();
            }));
            try (KafkaCompanion companion = new KafkaCompanion(broker.bootstrapServers())) {
                companion.topics().createAndWait("exit-probe", 1);
                companion.produceStrings().fromRecords(List.of(new ProducerRecord<>("exit-probe", "k", "v")))
                        .awaitCompletion(Duration.ofSeconds(30));
            }
            System.out.println("data: " + broker.directory());
            System.exit(0);
        }
    }
}
