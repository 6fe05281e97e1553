package dev.rayscale.testsupport;

import io.smallrye.reactive.messaging.kafka.api.OutgoingKafkaRecordMetadata;
import io.smallrye.reactive.messaging.memory.InMemoryConnector;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.eclipse.microprofile.reactive.messaging.Message;

/**
 * A service's channels on SmallRye's in-memory connector, for its wiring test: no broker. Given as a test profile's
 * configuration only: {@code InMemoryConnector.switchIncomingChannelsToInMemory} and its twin also set system
 * properties, which carried the switch into the broker-backed tests that ran after it in the same JVM.
 */
public final class InMemoryChannels {

    private InMemoryChannels() {
    }

    /**
     * The configuration that moves {@code incoming} and {@code outgoing} channels in memory. An incoming channel gets
     * one consumer: concurrent ones are channels of their own ({@code name$1}, ...), each a source of its own.
     */
    public static Map<String, String> config(List<String> incoming, List<String> outgoing) {
        Map<String, String> config = new HashMap<>();
        incoming.forEach(channel -> {
            config.put("mp.messaging.incoming." + channel + ".connector", InMemoryConnector.CONNECTOR);
            config.put("mp.messaging.incoming." + channel + ".concurrency", "1");
        });
        outgoing.forEach(channel -> config.put("mp.messaging.outgoing." + channel + ".connector", InMemoryConnector.CONNECTOR));
        config.put("quarkus.kafka.health.enabled", "false");
        return config;
    }

    /** The Kafka key a service gave a message it sent (null if none). */
    public static Object key(Message<?> message) {
        return message.getMetadata(OutgoingKafkaRecordMetadata.class).map(OutgoingKafkaRecordMetadata::getKey).orElse(null);
    }
}
