package dev.rayscale.audit;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.rayscale.events.ClusterRef;
import dev.rayscale.events.ClusterSnapshot;
import dev.rayscale.events.codec.EventJson;
import dev.rayscale.events.codec.InvalidEventException;
import dev.rayscale.events.codec.IsoInstant;
import dev.rayscale.events.codec.UnsupportedSchemaVersionException;
import java.io.IOException;
import java.time.Instant;
import java.time.format.DateTimeParseException;

/**
 * What the chain needs of every snapshot: its id, cluster, sequence and time. Scanned from the JSON without
 * reading the rest (the nodes and the demand are most of a snapshot), so that a history of heartbeats is
 * cheap to follow; the whole snapshot is read only for the snapshots a decision answered.
 */
public record SnapshotHead(String id, ClusterRef cluster, long sequence, Instant observedAt) {

    private static final String TYPE = "ClusterSnapshot";

    public static SnapshotHead of(ClusterSnapshot snapshot) {
        return new SnapshotHead(snapshot.id(), snapshot.cluster(), snapshot.sequence(), snapshot.observedAt());
    }

    /**
     * Scans a snapshot's JSON as far as its head (the fields come first as Rayscale writes them); throws
     * {@link InvalidEventException} as a full read would for what it checks. The rest is not read: a snapshot broken
     * further on is found when it is read whole (a decision answered it, or {@code --strict}), or was set aside by the planner.
     */
    public static SnapshotHead scan(byte[] json) {
        if (json == null || json.length == 0) {
            throw new InvalidEventException(TYPE, "$", "the record is empty (a tombstone or a null value is not a " + TYPE + ")");
        }
        Long version = null;
        String id = null;
        String namespace = null;
        String name = null;
        String uid = null;
        Long sequence = null;
        Instant observedAt = null;
        try (JsonParser parser = EventJson.mapper().getFactory().createParser(json)) {
            if (parser.nextToken() != JsonToken.START_OBJECT) {
                throw new InvalidEventException(TYPE, "$", "expected a JSON object");
            }
            while (!(version != null && id != null && sequence != null && observedAt != null && name != null)
                    && parser.nextToken() == JsonToken.FIELD_NAME) {
                String field = parser.currentName();
                JsonToken token = parser.nextToken();
                switch (field) {
                    case "schemaVersion" -> version = token == JsonToken.VALUE_NUMBER_INT ? parser.getLongValue() : null;
                    case "id" -> id = token == JsonToken.VALUE_STRING ? parser.getText() : null;
                    case "sequence" -> sequence = token == JsonToken.VALUE_NUMBER_INT ? parser.getLongValue() : null;
                    case "observedAt" -> observedAt = token == JsonToken.VALUE_STRING ? IsoInstant.parse(parser.getText()) : null;
                    case "cluster" -> {
                        if (token != JsonToken.START_OBJECT) {
                            throw new InvalidEventException(TYPE, "$.cluster", "expected an object");
                        }
                        while (parser.nextToken() == JsonToken.FIELD_NAME) {
                            String part = parser.currentName();
                            parser.nextToken();
                            switch (part) {
                                case "namespace" -> namespace = parser.getValueAsString();
                                case "name" -> name = parser.getValueAsString();
                                case "uid" -> uid = parser.getValueAsString();
                                default -> parser.skipChildren();
                            }
                        }
                    }
                    default -> parser.skipChildren();
                }
            }
        } catch (IOException | DateTimeParseException unreadable) {
            throw new InvalidEventException(TYPE, "$", "not valid JSON: " + unreadable.getMessage(), unreadable);
        }
        if (version == null) {
            throw new InvalidEventException(TYPE, "$.schemaVersion", "required property is missing");
        }
        if (version != ClusterSnapshot.SCHEMA_VERSION) {
            throw new UnsupportedSchemaVersionException(TYPE, "$.schemaVersion", version, ClusterSnapshot.SCHEMA_VERSION);
        }
        require(id, "$.id");
        require(sequence, "$.sequence");
        require(observedAt, "$.observedAt");
        require(namespace, "$.cluster.namespace");
        require(name, "$.cluster.name");
        return new SnapshotHead(id, new ClusterRef(namespace, name, uid), sequence, observedAt);
    }

    private static void require(Object value, String field) {
        if (value == null || value instanceof String text && text.isBlank()) {
            throw new InvalidEventException(TYPE, field, "required property is missing");
        }
    }
}
