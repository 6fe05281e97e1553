package dev.rayscale.bench;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import dev.rayscale.events.codec.EventJson;
import dev.rayscale.events.codec.IsoInstant;
import java.io.IOException;
import java.time.Instant;

/**
 * What the bench follows of a snapshot: its id, sequence, observation time and the GCS state version it carries (null
 * when the GCS was not read), read from its JSON without binding the rest. The bench's reader shares the machine with what
 * it measures and reads every snapshot of the fleet; binding each whole was about half of its work (docs/fleet-bench-log.md).
 * The services that act on snapshots read them whole and check them; a snapshot is bound here only when the bench plans it.
 */
record SnapshotStamp(String id, long sequence, long observedAtMillis, Long stateVersion) {

    /**
     * @throws IllegalArgumentException if {@code json} is not a JSON object with an id, a sequence and an observation time
     */
    static SnapshotStamp of(byte[] json) {
        String id = null;
        Long sequence = null;
        Instant observedAt = null;
        Long stateVersion = null;
        try (JsonParser parser = EventJson.mapper().createParser(json)) {
            if (parser.nextToken() != JsonToken.START_OBJECT) {
                throw new IllegalArgumentException("a snapshot is a JSON object");
            }
            while (parser.nextToken() == JsonToken.FIELD_NAME) {
                String field = parser.currentName();
                JsonToken value = parser.nextToken();
                switch (field) {
                    case "id" -> id = value == JsonToken.VALUE_STRING ? parser.getText() : null;
                    case "sequence" -> sequence = value == JsonToken.VALUE_NUMBER_INT ? parser.getLongValue() : null;
                    case "observedAt" -> observedAt = value == JsonToken.VALUE_STRING ? IsoInstant.parse(parser.getText()) : null;
                    case "sources" -> stateVersion = gcsStateVersion(parser);
                    default -> { }
                }
                // What is not read, or is of the wrong kind, is passed over whole, so that its fields are never taken for the
                // snapshot's own (at the end of sources, as at a plain value, this does nothing).
                parser.skipChildren();
            }
        } catch (IOException | RuntimeException unreadable) {
            throw new IllegalArgumentException("not a snapshot: " + unreadable.getMessage(), unreadable);
        }
        if (id == null || sequence == null || observedAt == null) {
            throw new IllegalArgumentException("a snapshot without its id, sequence or observedAt");
        }
        return new SnapshotStamp(id, sequence, observedAt.toEpochMilli(), stateVersion);
    }

    /** {@code sources.gcs.stateVersion}, the parser at {@code sources}' value (a few fields: read as a tree); null if absent. */
    private static Long gcsStateVersion(JsonParser parser) throws IOException {
        JsonNode sources = parser.readValueAsTree();
        JsonNode version = sources == null ? null : sources.path("gcs").path("stateVersion");
        return version != null && version.isIntegralNumber() ? version.asLong() : null;
    }
}
