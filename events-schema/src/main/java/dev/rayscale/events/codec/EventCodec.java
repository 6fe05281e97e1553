package dev.rayscale.events.codec;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.networknt.schema.Error;
import dev.rayscale.events.ActuationResult;
import dev.rayscale.events.ClusterSnapshot;
import dev.rayscale.events.EventType;
import dev.rayscale.events.RayscaleEvent;
import dev.rayscale.events.ScaleDecision;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Reads and writes one event type as JSON. Reading is strict in what matters and lenient in what
 * may grow: the document must parse, carry a {@code schemaVersion} this reader knows, and satisfy the
 * event's JSON Schema; fields the schema does not name are ignored (additive changes keep the version).
 */
public final class EventCodec<T extends RayscaleEvent> {

    public static final EventCodec<ClusterSnapshot> SNAPSHOTS = new EventCodec<>(EventType.SNAPSHOT, EventSchemas.shipped());
    public static final EventCodec<ScaleDecision> DECISIONS = new EventCodec<>(EventType.DECISION, EventSchemas.shipped());
    public static final EventCodec<ActuationResult> ACTUATIONS = new EventCodec<>(EventType.ACTUATION, EventSchemas.shipped());

    /**
     * The largest event read: what Rayscale's producers may write ({@code max.request.size}, before compression). A
     * topic's 1 MiB bound holds a compressed batch, and gzip expands a megabyte to a gigabyte; a record beyond this is
     * refused by its length, before a byte of it is parsed.
     */
    public static final int MAX_EVENT_BYTES = 32 * 1024 * 1024;

    private static final int MAX_REPORTED_ERRORS = 5;

    private final EventType<T> type;
    private final EventSchemas schemas;
    private final ObjectMapper mapper = EventJson.mapper();

    public EventCodec(EventType<T> type, EventSchemas schemas) {
        this.type = type;
        this.schemas = schemas;
    }

    public EventType<T> type() {
        return type;
    }

    public byte[] encode(T event) {
        try {
            return mapper.writeValueAsBytes(event);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write " + type.displayName() + " " + event.id(), e);
        }
    }

    public String encodeToString(T event) {
        try {
            return mapper.writeValueAsString(event);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write " + type.displayName() + " " + event.id(), e);
        }
    }

    /** The event as a JSON tree, exactly as {@link #encode} would write it. */
    public JsonNode toTree(T event) {
        return mapper.valueToTree(event);
    }

    /**
     * Reads an event.
     *
     * @throws UnsupportedSchemaVersionException if the document is of a schema version this reader does not know
     * @throws InvalidEventException if it is not valid JSON or breaks the schema; names the field and the problem
     */
    public T decode(byte[] json) {
        if (json == null || json.length == 0) {
            throw invalid("$", "the record is empty (a tombstone or a null value is not a " + type.displayName() + ")", null);
        }
        requireBounded(json);
        JsonNode tree;
        try {
            tree = mapper.readTree(json);
        } catch (IOException e) {
            throw invalid("$", "not valid JSON: " + EventJson.problem(e), e);
        }
        return decode(tree);
    }

    public T decode(String json) {
        return decode(json.getBytes(StandardCharsets.UTF_8));
    }

    /**
     * Reads an event without checking it against the JSON Schema, for a reader that wants speed over a long
     * history (the audit): the JSON, the schema version and the record's own checks of its fields still apply.
     * What fails is read again by {@link #decode(byte[])}, so that the error is the same as a strict reader's.
     */
    public T bind(byte[] json) {
        requireBounded(json);
        try {
            T event = mapper.readValue(json, type.recordType());
            if (event != null && event.schemaVersion() == type.schemaVersion()) {
                return event;
            }
        } catch (IOException | IllegalArgumentException unreadable) {
            // read again below, for the strict reader's error
        }
        return decode(json);
    }

    /**
     * Reads and writes the shipped walkthrough example of this type once, and returns it. A cold JVM spends a good part of
     * a second on its first event (loading the schema validator and the data binding); a service that calls this at
     * start-up pays it there rather than on its first record.
     *
     * @throws IllegalStateException if the examples are not on the classpath (a native executable leaves them out)
     */
    public T warmUp() {
        T example = decode(example());
        encode(example);
        return example;
    }

    /**
     * As {@link #warmUp()}, for a service that only writes events of this type (the collector): the example is read
     * without the JSON Schema, so that the validator, which such a service never uses, is not compiled.
     */
    public T warmUpWriting() {
        T example = bind(example());
        encode(example);
        return example;
    }

    private byte[] example() {
        String name = type.schemaResource().replaceFirst("^schemas/", "").replaceFirst("\\.v\\d+\\.schema\\.json$", "");
        return EventSchemas.resourceBytes("examples/" + name + "/walkthrough.json");
    }

    private void requireBounded(byte[] json) {
        if (json != null && json.length > MAX_EVENT_BYTES) {
            throw invalid("$", "the record is " + json.length + " bytes, above the " + MAX_EVENT_BYTES + " a " + type.displayName()
                    + " may have: not read", null);
        }
    }

    /** Reads an event from a parsed document; see {@link #decode(byte[])}. */
    public T decode(JsonNode tree) {
        if (tree == null || !tree.isObject()) {
            throw invalid("$", "expected a JSON object, found " + (tree == null ? "nothing" : tree.getNodeType()), null);
        }
        checkVersion(tree.get("schemaVersion"));
        List<Error> errors = schemas.validate(type, tree);
        if (!errors.isEmpty()) {
            Error first = errors.get(0);
            String others = errors.size() == 1 ? "" : errors.stream().skip(1).limit(MAX_REPORTED_ERRORS)
                    .map(error -> field(error) + ": " + error.getMessage())
                    .collect(Collectors.joining("; ", " (also: ", errors.size() > MAX_REPORTED_ERRORS + 1 ? "; ...)" : ")"));
            throw invalid(field(first), first.getMessage() + others, null);
        }
        try {
            return mapper.treeToValue(tree, type.recordType());
        } catch (JsonMappingException e) {
            throw invalid(jsonPath(e.getPath()), EventJson.problem(e), e);
        } catch (JsonProcessingException | IllegalArgumentException e) {
            throw invalid("$", EventJson.problem(e), e);
        }
    }

    /** The offending field: for a missing required property, the property itself rather than its parent. */
    private static String field(Error error) {
        String location = error.getInstanceLocation().toString();
        return "required".equals(error.getKeyword()) && error.getProperty() != null
                ? location + "." + error.getProperty()
                : location;
    }

    private void checkVersion(JsonNode version) {
        if (version == null) {
            throw invalid("$.schemaVersion", "required property is missing", null);
        }
        if (!version.canConvertToExactIntegral() || !version.canConvertToLong()) {
            throw invalid("$.schemaVersion", "expected an integer, found " + version, null);
        }
        if (version.asLong() != type.schemaVersion()) {
            throw new UnsupportedSchemaVersionException(type.displayName(), "$.schemaVersion", version.asLong(), type.schemaVersion());
        }
    }

    private InvalidEventException invalid(String field, String problem, Throwable cause) {
        return new InvalidEventException(type.displayName(), field, problem, cause);
    }

    private static String jsonPath(List<JsonMappingException.Reference> path) {
        StringBuilder result = new StringBuilder("$");
        for (JsonMappingException.Reference step : path) {
            if (step.getFieldName() != null) {
                result.append('.').append(step.getFieldName());
            } else if (step.getIndex() >= 0) {
                result.append('[').append(step.getIndex()).append(']');
            }
        }
        return result.toString();
    }
}
