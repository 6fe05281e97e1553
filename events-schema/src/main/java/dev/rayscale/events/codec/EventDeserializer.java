package dev.rayscale.events.codec;

import com.fasterxml.jackson.databind.JsonNode;
import dev.rayscale.events.CloudEventHeaders;
import dev.rayscale.events.RayscaleEvent;
import java.util.function.Supplier;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.serialization.Deserializer;

/**
 * Kafka deserializer for one Rayscale event type. Throws {@link InvalidEventException} (or its
 * subclass {@link UnsupportedSchemaVersionException}) for a record it cannot read, naming the field
 * and the problem; it never returns a half-read event. CloudEvents headers, when the record has any,
 * must agree with the event.
 */
public abstract class EventDeserializer<T extends RayscaleEvent> implements Deserializer<T> {

    private final EventCodec<T> codec;

    protected EventDeserializer(EventCodec<T> codec) {
        this.codec = codec;
    }

    @Override
    public T deserialize(String topic, byte[] data) {
        return codec.decode(data);
    }

    /**
     * Reads a record with its CloudEvents headers, which must agree with it: {@code ce_specversion} 1.0,
     * {@code ce_type} this event type and version, a {@code ce_source}, {@code ce_id} the event's id and,
     * when present, {@code ce_subject} its cluster. A record without headers at all is read as a bare value.
     */
    @Override
    public T deserialize(String topic, Headers headers, byte[] data) {
        return checked(headers, () -> codec.decode(data));
    }

    /** Reads an already parsed record value with its CloudEvents headers; see {@link #deserialize(String, Headers, byte[])}. */
    public T deserialize(Headers headers, JsonNode tree) {
        return checked(headers, () -> codec.decode(tree));
    }

    private T checked(Headers headers, Supplier<T> decode) {
        if (headers == null || !headers.iterator().hasNext()) {
            return decode.get();
        }
        String ceType = present(headers, CloudEventHeaders.TYPE);
        if (!ceType.equals(codec.type().ceType())) {
            throw wrongType(ceType);
        }
        require(headers, CloudEventHeaders.SPEC_VERSION, CloudEventHeaders.CLOUDEVENTS_VERSION);
        present(headers, CloudEventHeaders.SOURCE);
        String id = present(headers, CloudEventHeaders.ID);
        T event = decode.get();
        if (!id.equals(event.id())) {
            throw invalid(CloudEventHeaders.ID, "expected the event's id " + event.id() + ", found " + id);
        }
        String subject = CloudEventHeaders.read(headers, CloudEventHeaders.SUBJECT);
        if (subject != null && !subject.equals(event.cluster().id())) {
            throw invalid(CloudEventHeaders.SUBJECT, "expected the event's cluster " + event.cluster().id() + ", found " + subject);
        }
        return event;
    }

    private String present(Headers headers, String name) {
        String value = CloudEventHeaders.read(headers, name);
        if (value == null || value.isBlank()) {
            throw invalid(name, "missing");
        }
        return value;
    }

    private void require(Headers headers, String name, String expected) {
        String value = present(headers, name);
        if (!value.equals(expected)) {
            throw invalid(name, "expected " + expected + ", found " + value);
        }
    }

    private InvalidEventException invalid(String header, String problem) {
        return new InvalidEventException(codec.type().displayName(), "header " + header, problem);
    }

    private InvalidEventException wrongType(String ceType) {
        String eventType = codec.type().displayName();
        String field = "header " + CloudEventHeaders.TYPE;
        String expected = codec.type().ceType();
        String family = expected.substring(0, expected.lastIndexOf(".v") + 2);
        if (ceType.startsWith(family)) {
            try {
                long version = Long.parseLong(ceType.substring(family.length()));
                return new UnsupportedSchemaVersionException(eventType, field, version, codec.type().schemaVersion());
            } catch (NumberFormatException notAVersion) {
                // falls through: not a version suffix, so simply the wrong type
            }
        }
        return new InvalidEventException(eventType, field, "expected " + expected + ", found " + ceType);
    }
}
