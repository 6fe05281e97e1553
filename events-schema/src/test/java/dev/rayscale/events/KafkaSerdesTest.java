package dev.rayscale.events;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rayscale.events.codec.DecisionDeserializer;
import dev.rayscale.events.codec.EventCodec;
import dev.rayscale.events.codec.EventSchemas;
import dev.rayscale.events.codec.EventSerializer;
import dev.rayscale.events.codec.InvalidEventException;
import dev.rayscale.events.codec.SnapshotDeserializer;
import dev.rayscale.events.codec.SnapshotSerializer;
import dev.rayscale.events.codec.UnsupportedSchemaVersionException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.Test;

class KafkaSerdesTest {

    private final ClusterSnapshot snapshot = EventCodec.SNAPSHOTS.decode(Examples.document(EventType.SNAPSHOT, "walkthrough").toString());

    @Test
    void serializerWritesCloudEventsBinaryHeaders() {
        RecordHeaders headers = new RecordHeaders();
        try (SnapshotSerializer serializer = new SnapshotSerializer()) {
            serializer.configure(Map.of(EventSerializer.SOURCE_CONFIG, "//rayscale/demand-collector"), false);
            serializer.serialize(Topics.SNAPSHOTS, headers, snapshot);
        }

        assertThat(CloudEventHeaders.read(headers, CloudEventHeaders.SPEC_VERSION)).isEqualTo("1.0");
        assertThat(CloudEventHeaders.read(headers, CloudEventHeaders.ID)).isEqualTo(snapshot.id());
        assertThat(CloudEventHeaders.read(headers, CloudEventHeaders.TYPE)).isEqualTo("dev.rayscale.snapshot.v1");
        assertThat(CloudEventHeaders.read(headers, CloudEventHeaders.SOURCE)).isEqualTo("//rayscale/demand-collector");
        assertThat(CloudEventHeaders.read(headers, CloudEventHeaders.TIME)).isEqualTo("2026-11-30T10:00:05Z");
        assertThat(CloudEventHeaders.read(headers, CloudEventHeaders.SUBJECT)).isEqualTo("default/raycluster-autoscaler");
        assertThat(CloudEventHeaders.read(headers, CloudEventHeaders.CONTENT_TYPE)).isEqualTo("application/json");
    }

    @Test
    void serializerKeepsCloudEventsHeadersAProducerSetItself() {
        RecordHeaders headers = new RecordHeaders();
        headers.add(CloudEventHeaders.ID, "mine".getBytes(StandardCharsets.UTF_8));
        try (SnapshotSerializer serializer = new SnapshotSerializer()) {
            serializer.serialize(Topics.SNAPSHOTS, headers, snapshot);
        }

        assertThat(headers.headers(CloudEventHeaders.ID)).hasSize(1);
        assertThat(CloudEventHeaders.read(headers, CloudEventHeaders.ID)).isEqualTo("mine");
    }

    @Test
    void serializedRecordReadsBackEqual() {
        RecordHeaders headers = new RecordHeaders();
        byte[] bytes;
        try (SnapshotSerializer serializer = new SnapshotSerializer()) {
            bytes = serializer.serialize(Topics.SNAPSHOTS, headers, snapshot);
        }
        try (SnapshotDeserializer deserializer = new SnapshotDeserializer()) {
            assertThat(deserializer.deserialize(Topics.SNAPSHOTS, headers, bytes)).isEqualTo(snapshot);
        }
    }

    @Test
    void deserializerRejectsAnotherEventType() {
        RecordHeaders headers = new RecordHeaders();
        byte[] bytes;
        try (SnapshotSerializer serializer = new SnapshotSerializer()) {
            bytes = serializer.serialize(Topics.SNAPSHOTS, headers, snapshot);
        }
        try (DecisionDeserializer deserializer = new DecisionDeserializer()) {
            assertThatThrownBy(() -> deserializer.deserialize(Topics.DECISIONS, headers, bytes))
                    .isExactlyInstanceOf(InvalidEventException.class)
                    .hasMessage("invalid ScaleDecision: header ce_type: expected dev.rayscale.decision.v1, found dev.rayscale.snapshot.v1");
        }
    }

    @Test
    void deserializerRecognisesANewerVersionFromTheHeader() {
        RecordHeaders headers = new RecordHeaders();
        headers.add(CloudEventHeaders.TYPE, "dev.rayscale.snapshot.v2".getBytes(StandardCharsets.UTF_8));
        try (SnapshotDeserializer deserializer = new SnapshotDeserializer()) {
            assertThatThrownBy(() -> deserializer.deserialize(Topics.SNAPSHOTS, headers, "{}".getBytes(StandardCharsets.UTF_8)))
                    .isInstanceOfSatisfying(UnsupportedSchemaVersionException.class, e -> assertThat(e.version()).isEqualTo(2));
        }
    }

    @Test
    void nullEventIsANullRecord() {
        try (SnapshotSerializer serializer = new SnapshotSerializer()) {
            assertThat(serializer.serialize(Topics.SNAPSHOTS, new RecordHeaders(), null)).isNull();
        }
    }

    /** The CloudEvents attributes a reader relies on must agree with the event; a mismatch is an invalid record. */
    @Test
    void refusesCloudEventsHeadersThatDisagreeWithTheEvent() {
        ClusterSnapshot snapshot = EventCodec.SNAPSHOTS.decode(EventSchemas.readResource("examples/cluster-snapshot/walkthrough.json"));
        byte[] value = EventCodec.SNAPSHOTS.encode(snapshot);
        record Case(String header, String value, String problem) {
        }
        for (Case wrong : List.of(new Case(CloudEventHeaders.SPEC_VERSION, "9.9", "header ce_specversion: expected 1.0, found 9.9"),
                new Case(CloudEventHeaders.ID, "someone-else", "header ce_id: expected the event's id"),
                new Case(CloudEventHeaders.SUBJECT, "other/cluster", "header ce_subject: expected the event's cluster"),
                new Case(CloudEventHeaders.SOURCE, "", "header ce_source: missing"))) {
            RecordHeaders headers = new RecordHeaders();
            CloudEventHeaders.addIfAbsent(headers, EventType.SNAPSHOT, snapshot, "//test");
            headers.remove(wrong.header());
            headers.add(wrong.header(), wrong.value().getBytes(StandardCharsets.UTF_8));
            try (SnapshotDeserializer deserializer = new SnapshotDeserializer()) {
                assertThatThrownBy(() -> deserializer.deserialize(Topics.SNAPSHOTS, headers, value))
                        .as(wrong.header()).isInstanceOf(InvalidEventException.class).hasMessageContaining(wrong.problem());
            }
        }
    }
}
