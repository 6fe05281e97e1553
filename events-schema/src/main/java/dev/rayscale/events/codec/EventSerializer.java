package dev.rayscale.events.codec;

import dev.rayscale.events.CloudEventHeaders;
import dev.rayscale.events.RayscaleEvent;
import java.util.Map;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.serialization.Serializer;

/**
 * Kafka serializer for one Rayscale event type. Writes the event's JSON and, unless the producer set
 * them itself, its CloudEvents binary-mode headers. Configure the CloudEvents source with
 * {@value #SOURCE_CONFIG} (default {@value #DEFAULT_SOURCE}).
 */
public abstract class EventSerializer<T extends RayscaleEvent> implements Serializer<T> {

    public static final String SOURCE_CONFIG = "rayscale.cloudevents.source";
    public static final String DEFAULT_SOURCE = "/rayscale";

    private final EventCodec<T> codec;
    private String source = DEFAULT_SOURCE;

    protected EventSerializer(EventCodec<T> codec) {
        this.codec = codec;
    }

    @Override
    public void configure(Map<String, ?> configs, boolean isKey) {
        Object configured = configs.get(SOURCE_CONFIG);
        if (configured != null && !configured.toString().isBlank()) {
            source = configured.toString();
        }
    }

    @Override
    public byte[] serialize(String topic, T event) {
        return event == null ? null : codec.encode(event);
    }

    @Override
    public byte[] serialize(String topic, Headers headers, T event) {
        if (event == null) {
            return null;
        }
        if (headers != null) {
            CloudEventHeaders.addIfAbsent(headers, codec.type(), event, source);
        }
        return codec.encode(event);
    }
}
