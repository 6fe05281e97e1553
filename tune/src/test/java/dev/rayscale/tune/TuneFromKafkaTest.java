package dev.rayscale.tune;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rayscale.audit.EventReader;
import dev.rayscale.audit.ExportFormat;
import dev.rayscale.audit.KafkaRecords;
import dev.rayscale.audit.Recorded;
import dev.rayscale.audit.Selection;
import dev.rayscale.planner.core.PlannerSettings;
import dev.rayscale.testsupport.TestKafka;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.zip.GZIPInputStream;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

/**
 * {@code tune --bootstrap-servers} reads Rayscale's topics as the other audit commands do: the demo's gpu-mix recording,
 * written to a real broker under a cluster name of this run's own (a shared broker holds other runs'), tunes exactly as
 * its file does.
 */
class TuneFromKafkaTest {

    private static final List<String> GRID = List.of("idleTimeoutSeconds=30,120");

    @Test
    void theBrokerGivesTheSameTuneAsTheFile() throws Exception {
        String name = "tune-kafka-" + UUID.randomUUID().toString().substring(0, 8);
        Instant from = Instant.now();
        ExportFormat format = new ExportFormat();
        long produced = 0;
        try (BufferedReader lines = new BufferedReader(new InputStreamReader(new GZIPInputStream(
                Files.newInputStream(Recordings.file("gpu-mix"))), StandardCharsets.UTF_8));
                KafkaProducer<String, byte[]> producer = new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                        TestKafka.bootstrapServers(), ProducerConfig.ACKS_CONFIG, "all"), new StringSerializer(), new ByteArraySerializer())) {
            for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                Recorded record = format.read(line.replace("raycluster-gpu-mix", name), ++produced);
                producer.send(new ProducerRecord<>(record.topic(), null, Instant.now().toEpochMilli(), record.key(), record.value(),
                        record.headers())).get(30, TimeUnit.SECONDS);
            }
        }
        Properties client = new Properties();
        client.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, TestKafka.bootstrapServers());
        Tuner fromBroker = new Tuner(GRID, Objective.of("balanced", null));
        try (KafkaRecords source = new KafkaRecords(client, new Selection(Set.of("default/" + name), from, Instant.now().plusSeconds(1)))) {
            source.forEachRead(new EventReader(false), fromBroker::read);
        }
        Tuner fromFile = Recordings.read("gpu-mix", new Tuner(GRID, Objective.of("balanced", null)));

        assertThat(fromBroker.clusters()).containsExactly("default/" + name);
        TuneReport broker = fromBroker.tune("default/" + name, PlannerSettings.defaults("test"));
        TuneReport file = fromFile.tune("default/raycluster-gpu-mix", PlannerSettings.defaults("test"));
        assertThat(broker.calibration().recorded()).isEqualTo(file.calibration().recorded());
        assertThat(broker.calibration().replayed()).isEqualTo(file.calibration().replayed());
        assertThat(broker.outcomes()).extracting(Outcome::figures).containsExactlyElementsOf(file.outcomes().stream().map(Outcome::figures).toList());
        assertThat(broker.lastLine()).isEqualTo(file.lastLine());
    }
}
