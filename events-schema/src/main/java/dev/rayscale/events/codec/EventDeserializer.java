package dev.rayscale.events.codec;

import dev.rayscale.events.CloudEventHeaders;
import dev.rayscale.events.RayscaleEvent;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.serialization.Deserializer;

/**
 * Kafka deserializer for one Rayscale event type. Throws {@link InvalidEventException} (or its
 * subclass {@link UnsupportedSchemaVersionException}) for a record it cannot read, naming the field
 * and the problem; it never returns a half-read event. A {@code ce_type} header, when present, must
 * name this event type.
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

    @Override
    public T deserialize(String topic, Headers headers, byte[] data) {
        String ceType = CloudEventHeaders.read(headers, CloudEventHeaders.TYPE);
        if (ceType != null && !ceType.equals(codec.type().ceType())) {
            throw wrongType(ceType);
        }
        return codec.decode(data);
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
