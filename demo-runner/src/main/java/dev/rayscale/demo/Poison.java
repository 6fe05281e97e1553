package dev.rayscale.demo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.rayscale.events.CloudEventHeaders;
import dev.rayscale.events.EventType;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The bad records of the {@code poison} fault: for one input topic, 1,000 records keyed by the run's
 * cluster that no service may act on — not JSON, the wrong shape, an unknown schema version, CloudEvents
 * headers that contradict the event, an event of another cluster under this cluster's key, empty and
 * null values, and values just under the broker's 1 MiB limit and far over it (the latter written
 * compressed, as a producer may, so that the broker takes it and consumers get 3 MiB). Every record
 * carries the {@value #HEADER} header naming its kind, which its dead-letter copy keeps.
 */
public final class Poison {

    public static final String HEADER = "rayscale-poison";

    /** Kinds of bad record, with how many of each go to a topic (1,000 in all). */
    public enum Kind {
        NOT_JSON("not-json", 300),
        WRONG_SCHEMA("wrong-schema", 200),
        UNKNOWN_VERSION("unknown-version", 150),
        BAD_HEADERS("bad-headers", 150),
        OTHER_CLUSTERS_EVENT("other-clusters-event", 50),
        EMPTY("empty", 70),
        NULL("null", 70),
        JUST_UNDER_LIMIT("just-under-limit", 5),
        OVER_LIMIT("over-limit", 5);

        public final String label;
        final int count;

        Kind(String label, int count) {
            this.label = label;
            this.count = count;
        }

        /** How many of this kind go to each input topic. */
        public int count() {
            return count;
        }
    }

    /** One bad record; {@code compressed} ones are written by a producer that compresses. */
    public record Record(Kind kind, byte[] value, Map<String, String> headers, boolean compressed) {
    }

    /** The broker's default record limit (message.max.bytes), less room for the batch and the headers. */
    static final int JUST_UNDER_LIMIT_BYTES = 1024 * 1024 - 4 * 1024;
    static final int OVER_LIMIT_BYTES = 3 * 1024 * 1024;

    private static final ObjectMapper JSON = new ObjectMapper();

    private Poison() {
    }

    /** The 1,000 bad records for the topic of {@code type}, about cluster {@code clusterId} ({@code namespace/name}). */
    public static List<Record> forTopic(EventType<?> type, String clusterId) {
        ObjectNode valid = example(type);
        List<Record> records = new ArrayList<>();
        for (Kind kind : Kind.values()) {
            for (int i = 0; i < kind.count; i++) {
                records.add(make(kind, i, type, valid, clusterId));
            }
        }
        return records;
    }

    private static Record make(Kind kind, int i, EventType<?> type, ObjectNode valid, String clusterId) {
        String id = "poison-" + kind.label + "-" + i;
        ObjectNode event = about(valid, id, clusterId);
        Map<String, String> headers = headers(type, id, clusterId);
        byte[] value = switch (kind) {
            case NOT_JSON -> notJson(i, event);
            case WRONG_SCHEMA -> wrongSchema(i, event);
            case UNKNOWN_VERSION -> {
                event.put("schemaVersion", 99);
                if (i % 2 == 0) {
                    headers.put(CloudEventHeaders.TYPE, type.ceType().replaceFirst("\\.v\\d+$", ".v99"));
                }
                yield bytes(event);
            }
            case BAD_HEADERS -> {
                switch (i % 5) {
                    case 0 -> headers.put(CloudEventHeaders.SPEC_VERSION, "9.9");
                    case 1 -> headers.put(CloudEventHeaders.TYPE, "dev.rayscale.something-else.v1");
                    case 2 -> headers.remove(CloudEventHeaders.SOURCE);
                    case 3 -> headers.put(CloudEventHeaders.ID, "not-" + id);
                    default -> headers.put(CloudEventHeaders.SUBJECT, "default/another-cluster");
                }
                yield bytes(event);
            }
            case OTHER_CLUSTERS_EVENT -> {
                ObjectNode other = about(valid, id, "default/another-cluster");
                headers.put(CloudEventHeaders.SUBJECT, "default/another-cluster");
                yield bytes(other);
            }
            case EMPTY -> new byte[0];
            case NULL -> null;
            case JUST_UNDER_LIMIT -> padded(JUST_UNDER_LIMIT_BYTES);
            case OVER_LIMIT -> padded(OVER_LIMIT_BYTES);
        };
        headers.put(HEADER, kind.label);
        return new Record(kind, value, headers, kind == Kind.OVER_LIMIT);
    }

    private static byte[] notJson(int i, ObjectNode event) {
        byte[] valid = bytes(event);
        return switch (i % 5) {
            case 0 -> "this is not JSON".getBytes(StandardCharsets.UTF_8);
            case 1 -> Arrays.copyOf(valid, valid.length / 2);
            case 2 -> new byte[] {(byte) 0xff, (byte) 0xfe, 0, 1, 2, 3};
            case 3 -> "<event/>".getBytes(StandardCharsets.UTF_8);
            default -> "{\"schemaVersion\": 1, }".getBytes(StandardCharsets.UTF_8);
        };
    }

    private static byte[] wrongSchema(int i, ObjectNode event) {
        return switch (i % 5) {
            case 0 -> "{}".getBytes(StandardCharsets.UTF_8);
            case 1 -> "[1, 2, 3]".getBytes(StandardCharsets.UTF_8);
            case 2 -> {
                event.remove("cluster");
                yield bytes(event);
            }
            case 3 -> {
                event.put("id", 42);
                yield bytes(event);
            }
            // Far deeper than any reader should follow.
            default -> ("[".repeat(100_000) + "]".repeat(100_000)).getBytes(StandardCharsets.UTF_8);
        };
    }

    private static byte[] padded(int size) {
        String prefix = "{\"schemaVersion\": 1, \"padding\": \"";
        String suffix = "\"}";
        return (prefix + "x".repeat(size - prefix.length() - suffix.length()) + suffix).getBytes(StandardCharsets.UTF_8);
    }

    private static Map<String, String> headers(EventType<?> type, String id, String clusterId) {
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put(CloudEventHeaders.SPEC_VERSION, CloudEventHeaders.CLOUDEVENTS_VERSION);
        headers.put(CloudEventHeaders.ID, id);
        headers.put(CloudEventHeaders.TYPE, type.ceType());
        headers.put(CloudEventHeaders.SOURCE, "//rayscale.dev/demo/poison");
        headers.put(CloudEventHeaders.SUBJECT, clusterId);
        headers.put(CloudEventHeaders.CONTENT_TYPE, CloudEventHeaders.JSON);
        return headers;
    }

    /** The example event, as if about {@code clusterId} with this id (and a uid no real cluster has). */
    private static ObjectNode about(ObjectNode valid, String id, String clusterId) {
        ObjectNode event = valid.deepCopy();
        event.put("id", id);
        ObjectNode cluster = (ObjectNode) event.get("cluster");
        cluster.put("namespace", clusterId.substring(0, clusterId.indexOf('/')));
        cluster.put("name", clusterId.substring(clusterId.indexOf('/') + 1));
        cluster.put("uid", "00000000-0000-0000-0000-000000000000");
        return event;
    }

    private static ObjectNode example(EventType<?> type) {
        String folder = type == EventType.SNAPSHOT ? "cluster-snapshot" : type == EventType.DECISION ? "scale-decision" : "actuation-result";
        String resource = "examples/" + folder + "/walkthrough" + (type == EventType.ACTUATION ? "-applied" : "") + ".json";
        try (InputStream in = Poison.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException(resource + " is missing from events-schema");
            }
            JsonNode tree = JSON.readTree(in);
            return (ObjectNode) tree;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static byte[] bytes(JsonNode node) {
        try {
            return JSON.writeValueAsBytes(node);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
