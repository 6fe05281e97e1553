package dev.rayscale.audit;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.rayscale.events.CloudEventHeaders;
import dev.rayscale.events.codec.EventJson;
import dev.rayscale.events.codec.IsoInstant;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Arrays;
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
        JsonNode data = json(record.value());
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

    /**
     * Reads one line back into the record it was. The line is scanned, not built into a tree: the value is the
     * {@code data} as it stands in the line, for the reader of the event to parse once.
     */
    public Recorded read(String line, long number) throws IOException {
        return read(line.getBytes(StandardCharsets.UTF_8), number);
    }

    /** As {@link #read(String, long)}, from the line's UTF-8 bytes. */
    public Recorded read(byte[] bytes, long number) throws IOException {
        return read(bytes, number, false);
    }

    /**
     * As {@link #read(byte[], long)}; {@code whole} when the line is known to be as written (it ended with its line end),
     * so that where its data ends is found from the line's end rather than by following every bracket of the data.
     */
    Recorded read(byte[] bytes, long number, boolean whole) throws IOException {
        Map<String, String> attributes = new LinkedHashMap<>();
        byte[] value = null;
        try (JsonParser parser = mapper.getFactory().createParser(bytes)) {
            if (parser.nextToken() != JsonToken.START_OBJECT) {
                throw new IOException("not a JSON object");
            }
            while (parser.nextToken() == JsonToken.FIELD_NAME) {
                String name = parser.currentName();
                JsonToken token = parser.nextToken();
                if (name.equals("data")) {
                    int start = (int) parser.currentTokenLocation().getByteOffset();
                    int end = !token.isStructStart() ? -1 : whole ? JsonSpan.lastMemberEnd(bytes, start) : JsonSpan.end(bytes, start);
                    if (end > 0 && JsonSpan.closesObject(bytes, end)) {
                        // The data closes the line, as this format writes it: taken as it stands, left for its reader to parse.
                        value = Arrays.copyOfRange(bytes, start, end);
                        break;
                    }
                    value = slice(parser, bytes, token);
                } else if (name.equals("data_base64")) {
                    value = Base64.getDecoder().decode(parser.getText());
                } else if (token.isScalarValue()) {
                    attributes.put(name, parser.getText());
                } else {
                    parser.skipChildren();
                }
            }
        }
        String topic = attributes.get(TOPIC);
        if (topic == null) {
            throw new IOException("not an exported record (a CloudEvent with " + TOPIC + ")");
        }
        Headers headers = new RecordHeaders();
        if (!Boolean.parseBoolean(attributes.get(BARE))) {
            attributes.forEach((name, text) -> {
                if (name.equals("datacontenttype")) {
                    add(headers, CloudEventHeaders.CONTENT_TYPE, text);
                } else if (isCloudEventsAttribute(name)) {
                    add(headers, CE_PREFIX + name, text);
                }
            });
        }
        if (attributes.containsKey(HEADERS)) {
            for (Iterator<Map.Entry<String, JsonNode>> others = mapper.readTree(attributes.get(HEADERS)).fields(); others.hasNext();) {
                Map.Entry<String, JsonNode> header = others.next();
                add(headers, header.getKey(), header.getValue().asText());
            }
        }
        String time = attributes.getOrDefault(TIMESTAMP, attributes.get("time"));
        if (time == null) {
            throw new IOException("the record has neither " + TIMESTAMP + " nor time");
        }
        return new Recorded(topic, Integer.parseInt(attributes.getOrDefault(PARTITION, "0")), Long.parseLong(attributes.getOrDefault(OFFSET, "0")),
                number, IsoInstant.parse(time).toEpochMilli(), attributes.get(KEY), headers, value);
    }

    /** The bytes of the value the parser stands at: an object or array as it is in the line, anything else written anew. */
    private byte[] slice(JsonParser parser, byte[] line, JsonToken token) throws IOException {
        if (token == JsonToken.START_OBJECT || token == JsonToken.START_ARRAY) {
            int start = (int) parser.currentTokenLocation().getByteOffset();
            parser.skipChildren();
            int end = (int) parser.currentLocation().getByteOffset();
            return Arrays.copyOfRange(line, start, end);
        }
        return token == JsonToken.VALUE_NULL ? null : mapper.writeValueAsBytes(parser.readValueAsTree());
    }

    /** The attributes the {@code ce_*} headers carry: everything but this format's own extensions and the data. */
    private static boolean isCloudEventsAttribute(String name) {
        return !name.startsWith("kafka") && !name.equals(KEY);
    }

    private static void add(Headers headers, String key, String value) {
        headers.add(key, value.getBytes(StandardCharsets.UTF_8));
    }
}
