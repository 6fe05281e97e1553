package dev.rayscale.audit;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.rayscale.events.Topics;
import dev.rayscale.testsupport.TestKafka;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The commands read a real broker as they read an export: the golden recording is written to Rayscale's topics
 * (its record times moved a few minutes ahead, so that the broker's offsets for times find this run's records and no
 * earlier run's), then audited and replayed from the broker and from an export of it.
 */
class KafkaRecordsTest {

    private static final Duration AHEAD = Duration.ofMinutes(10);
    private static final String CLUSTER = "default/raycluster-walkthrough";

    private static Instant start;
    private static Instant end;
    private static long produced;

    @TempDir
    Path folder;

    @BeforeAll
    static void writeTheRecordingToTheTopics() throws IOException, InterruptedException, ExecutionException, TimeoutException {
        Recording golden = Recording.golden();
        long firstTimestamp = Instant.parse(golden.lines.get(0).get("kafkatimestamp").asText()).toEpochMilli();
        long shift = Instant.now().plus(AHEAD).toEpochMilli() - firstTimestamp;
        ExportFormat format = new ExportFormat();
        try (KafkaProducer<String, byte[]> producer = new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                TestKafka.bootstrapServers(), ProducerConfig.ACKS_CONFIG, "all"), new StringSerializer(), new ByteArraySerializer())) {
            long last = 0;
            for (int i = 0; i < golden.lines.size(); i++) {
                Recorded record = format.read(golden.lines.get(i).toString(), i + 1);
                byte[] value = record.value();
                last = record.timestamp() + shift;
                producer.send(new ProducerRecord<>(record.topic(), null, last, record.key(), value, record.headers())).get(30, TimeUnit.SECONDS);
                produced++;
            }
            // A record that is no event at all, under the cluster's key: read and flagged with its place, from the broker and the export.
            producer.send(new ProducerRecord<>(Topics.SNAPSHOTS, null, last + 1, CLUSTER, "not json".getBytes(StandardCharsets.UTF_8)))
                    .get(30, TimeUnit.SECONDS);
            produced++;
            start = Instant.ofEpochMilli(firstTimestamp + shift);
            end = Instant.ofEpochMilli(last + 2);
        }
    }

    private static KafkaRecords broker(Instant from) {
        Properties client = new Properties();
        client.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, TestKafka.bootstrapServers());
        return new KafkaRecords(client, new Selection(Set.of(CLUSTER), from, end));
    }

    @Test
    void theBrokerAndItsExportGiveTheSameAuditAndTheSameReplay() throws IOException {
        Path export = folder.resolve("export.jsonl.gz");
        try (KafkaRecords source = broker(start); Exporter exporter = new Exporter(export)) {
            source.forEach(exporter::write);
            assertThat(exporter.written()).isEqualTo(produced);
        }

        Audits fromBroker;
        try (KafkaRecords source = broker(start)) {
            fromBroker = Audits.of(source);
        }
        Audits fromFile = Audits.of(new FileRecords(export, Selection.ALL));
        Audits golden = Audits.of(new FileRecords(Recording.goldenFile(), Selection.ALL));

        assertThat(fromBroker.totals.records).isEqualTo(produced);
        assertThat(fromBroker.kinds()).containsExactly(Flag.Kind.BAD_RECORD);
        assertThat(fromBroker.flags.get(0).position()).startsWith(Topics.SNAPSHOTS + "/");
        assertThat(fromFile.kinds()).containsExactly(Flag.Kind.BAD_RECORD);
        assertThat(fromFile.flags.get(0).position()).endsWith("(" + fromBroker.flags.get(0).position() + ")");
        for (Audits audit : List.of(fromBroker, fromFile)) {
            assertThat(audit.chains).extracting(chain -> chain.decision().id() + " " + chain.result().outcome() + " " + chain.snapshotDigest())
                    .containsExactlyElementsOf(golden.chains.stream()
                            .map(chain -> chain.decision().id() + " " + chain.result().outcome() + " " + chain.snapshotDigest()).toList());
        }
        assertThat(replay(broker(start))).isEqualTo(replay(new FileRecords(Recording.goldenFile(), Selection.ALL)))
                .isEqualTo(replay(new FileRecords(export, Selection.ALL)));
    }

    @Test
    void aTimeRangeIsFoundByTheBrokersOffsetsForTimes() {
        Recording recording = Recording.golden();
        JsonNode third = recording.of(Topics.DECISIONS).get(2);
        Instant thirdAt = Instant.parse(third.get("kafkatimestamp").asText());
        Instant from = start.plus(Duration.between(Instant.parse(recording.lines.get(0).get("kafkatimestamp").asText()), thirdAt));

        Audits audit;
        try (KafkaRecords source = broker(from)) {
            audit = Audits.of(source);
        }

        assertThat(audit.chains.get(0).decision().id()).isEqualTo(third.get("id").asText());
        assertThat(audit.totals.records).isLessThan(produced / 2);
    }

    /**
     * A record stamped after {@code --to} does not hide the records written after it but stamped in the range (a producer's
     * retries, a clock behind): the broker's offset for {@code --to} is that of the first record stamped at or after it.
     */
    @Test
    void recordsStampedOutOfOrderAreReadUpToTheirRange() throws Exception {
        String cluster = "default/out-of-order-" + UUID.randomUUID();
        Instant now = Instant.now();
        try (KafkaProducer<String, byte[]> producer = new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                TestKafka.bootstrapServers(), ProducerConfig.ACKS_CONFIG, "all"), new StringSerializer(), new ByteArraySerializer())) {
            for (Instant stamped : List.of(now.plus(Duration.ofMinutes(30)), now, now.plusMillis(1))) {
                producer.send(new ProducerRecord<>(Topics.SNAPSHOTS, null, stamped.toEpochMilli(), cluster,
                        stamped.toString().getBytes(StandardCharsets.UTF_8))).get(30, TimeUnit.SECONDS);
            }
        }
        Properties client = new Properties();
        client.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, TestKafka.bootstrapServers());
        List<String> read = new ArrayList<>();
        try (KafkaRecords source = new KafkaRecords(client, new Selection(Set.of(cluster), now, now.plusSeconds(1)))) {
            source.forEach(record -> read.add(new String(record.value(), StandardCharsets.UTF_8)));
        }

        assertThat(read).containsExactly(now.toString(), now.plusMillis(1).toString());
    }

    private static String replay(RecordSource source) {
        try (source) {
            Replayer replayer = new Replayer(PolicyOverrides.parse(List.of()), BuildInfo.plannerVersion(), new WhatIf(), false);
            try (Reads reads = new Reads(new EventReader(false), replayer::accept)) {
                source.forEach(reads);
            }
            Replayer.Counts counts = replayer.finish();
            return counts.line() + " explained=" + counts.explained;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
