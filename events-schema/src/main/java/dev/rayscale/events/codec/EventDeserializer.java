package dev.rayscale.events.codec;

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

    /**
     * Reads a record with its CloudEvents headers, as {@link #deserialize(String, Headers, byte[])} does, or, when not
     * {@code strict}, without the JSON Schema check ({@link EventCodec#bind(byte[])}).
     */
    public T read(Headers headers, byte[] value, boolean strict) {
        return checked(headers, () -> strict ? codec.decode(value) : codec.bind(value));
    }

    /**
     * Checks the CloudEvents headers of a record whose event was read some other way: they must agree with the
     * event's id and cluster, as for {@link #deserialize(String, Headers, byte[])}. A record without headers passes.
     */
    public void checkHeaders(Headers headers, String eventId, String clusterId) {
        if (headers != null && headers.iterator().hasNext()) {
            agree(headers, envelope(headers), eventId, clusterId);
        }
    }

    private T checked(Headers headers, Supplier<T> decode) {
        if (headers == null || !headers.iterator().hasNext()) {
            return decode.get();
        }
        String id = envelope(headers);
        T event = decode.get();
        agree(headers, id, event.id(), event.cluster().id());
        return event;
    }

    /** Checks the attributes that do not depend on the event; returns {@code ce_id}. */
    private String envelope(Headers headers) {
        String ceType = present(headers, CloudEventHeaders.TYPE);
        if (!ceType.equals(codec.type().ceType())) {
            throw wrongType(ceType);
        }
        require(headers, CloudEventHeaders.SPEC_VERSION, CloudEventHeaders.CLOUDEVENTS_VERSION);
        present(headers, CloudEventHeaders.SOURCE);
        return present(headers, CloudEventHeaders.ID);
    }

    private void agree(Headers headers, String ceId, String eventId, String clusterId) {
        if (!ceId.equals(eventId)) {
            throw invalid(CloudEventHeaders.ID, "expected the event's id " + eventId + ", found " + ceId);
        }
        String subject = CloudEventHeaders.read(headers, CloudEventHeaders.SUBJECT);
        if (subject != null && !subject.equals(clusterId)) {
            throw invalid(CloudEventHeaders.SUBJECT, "expected the event's cluster " + clusterId + ", found " + subject);
        }
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
