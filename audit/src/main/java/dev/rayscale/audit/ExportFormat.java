package dev.rayscale.audit;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.rayscale.events.CloudEventHeaders;
import dev.rayscale.events.codec.EventJson;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;

/**
 * The export file's line: one record as a CloudEvent in JSON structured mode. The {@code ce_*} headers
 * become the event's attributes and the value its {@code data} (or {@code data_base64} when it is not
 * JSON); where the record was and its other headers travel as extension attributes, so that a line reads
 * back as the very record it was: {@code partitionkey} (the CloudEvents partitioning extension: the
 * Kafka key), {@code kafkatopic}, {@code kafkapartition}, {@code kafkaoffset}, {@code kafkatimestamp}
 * (when it was written), {@code kafkaheaders} (the headers other than {@code ce_*}, as a JSON object in a
 * string) and {@code kafkabare} (the record had no CloudEvents headers; its attributes are made up from
 * where it was).
 */
public final class ExportFormat {

    static final String TOPIC = "kafkatopic";
    static final String PARTITION = "kafkapartition";
    static final String OFFSET = "kafkaoffset";
    static final String TIMESTAMP = "kafkatimestamp";
    static final String HEADERS = "kafkaheaders";
    static final String BARE = "kafkabare";
    static final String KEY = "partitionkey";
    private static final String CE_PREFIX = "ce_";

    private final ObjectMapper mapper = EventJson.mapper();

    /** Writes {@code record} as one JSON object (without the line's end). */
    public void write(Recorded record, JsonGenerator out) throws IOException {
        out.writeStartObject();
        Map<String, String> others = new LinkedHashMap<>();
        boolean bare = record.headers() == null || record.headers().lastHeader(CloudEventHeaders.ID) == null;
        if (bare) {
            out.writeStringField("specversion", CloudEventHeaders.CLOUDEVENTS_VERSION);
            out.writeStringField("id", "kafka:" + record.topic() + "/" + record.partition() + "/" + record.offset());
            out.writeStringField("source", "kafka:" + record.topic());
            out.writeStringField("type", "dev.rayscale.kafka.record");
            out.writeBooleanField(BARE, true);
        }
        if (record.headers() != null) {
            for (Header header : record.headers()) {
                String value = header.value() == null ? "" : new String(header.value(), StandardCharsets.UTF_8);
                if (!bare && header.key().startsWith(CE_PREFIX)) {
                    out.writeStringField(header.key().substring(CE_PREFIX.length()), value);
                } else if (!bare && header.key().equals(CloudEventHeaders.CONTENT_TYPE)) {
                    out.writeStringField("datacontenttype", value);
                } else {
                    others.put(header.key(), value);
                }
            }
        }
        if (record.key() != null) {
            out.writeStringField(KEY, record.key());
        }
        out.writeStringField(TOPIC, record.topic());
        out.writeNumberField(PARTITION, record.partition());
        out.writeNumberField(OFFSET, record.offset());
        out.writeStringField(TIMESTAMP, Instant.ofEpochMilli(record.timestamp()).toString());
        if (!others.isEmpty()) {
            out.writeStringField(HEADERS, mapper.writeValueAsString(others));
        }
        JsonNode data = record.data() != null ? record.data() : json(record.value());
        if (data != null) {
            out.writeFieldName("data");
            out.writeTree(data);
        } else if (record.value() != null) {
            out.writeStringField("data_base64", Base64.getEncoder().encodeToString(record.value()));
        }
        out.writeEndObject();
    }

    /** The value as JSON, or null if it is not JSON (then it is written as base64). */
    private JsonNode json(byte[] value) {
        if (value == null || value.length == 0) {
            return null;
        }
        try {
            return mapper.readTree(value);
        } catch (IOException notJson) {
            return null;
        }
    }

    /** Reads one line back into the record it was. */
    public Recorded read(String line, long number) throws IOException {
        JsonNode parsed = mapper.readTree(line);
        if (!(parsed instanceof ObjectNode event) || !event.hasNonNull(TOPIC)) {
            throw new IOException("not an exported record (a CloudEvent with " + TOPIC + ")");
        }
        Headers headers = new RecordHeaders();
        if (!event.path(BARE).asBoolean(false)) {
            for (Iterator<Map.Entry<String, JsonNode>> fields = event.fields(); fields.hasNext();) {
                Map.Entry<String, JsonNode> field = fields.next();
                String name = field.getKey();
                if (name.equals("datacontenttype")) {
                    add(headers, CloudEventHeaders.CONTENT_TYPE, field.getValue().asText());
                } else if (isCloudEventsAttribute(name)) {
                    add(headers, CE_PREFIX + name, field.getValue().asText());
                }
            }
        }
        if (event.hasNonNull(HEADERS)) {
            for (Iterator<Map.Entry<String, JsonNode>> others = mapper.readTree(event.get(HEADERS).asText()).fields(); others.hasNext();) {
                Map.Entry<String, JsonNode> header = others.next();
                add(headers, header.getKey(), header.getValue().asText());
            }
        }
        byte[] value = event.has("data_base64") ? Base64.getDecoder().decode(event.get("data_base64").asText()) : null;
        JsonNode data = event.get("data");
        return new Recorded(event.get(TOPIC).asText(), event.path(PARTITION).asInt(), event.path(OFFSET).asLong(), number,
                Instant.parse(event.path(TIMESTAMP).asText(event.path("time").asText())).toEpochMilli(),
                event.hasNonNull(KEY) ? event.get(KEY).asText() : null, headers, data == null ? value : null, data);
    }

    /** The attributes the {@code ce_*} headers carry: everything but this format's own extensions and the data. */
    private static boolean isCloudEventsAttribute(String name) {
        return !name.startsWith("kafka") && !name.equals(KEY) && !name.equals("data") && !name.equals("data_base64");
    }

    private static void add(Headers headers, String key, String value) {
        headers.add(key, value.getBytes(StandardCharsets.UTF_8));
    }
}
