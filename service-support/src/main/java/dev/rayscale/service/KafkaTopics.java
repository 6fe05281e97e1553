package dev.rayscale.service;

import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.eclipse.microprofile.config.Config;

/** The Kafka topics a service's channels use, as its configuration names them. */
final class KafkaTopics {

    private static final Pattern KAFKA_CHANNEL = Pattern.compile("mp\\.messaging\\.(incoming|outgoing)\\.([^.]+)\\.connector");
    private static final String KAFKA_CONNECTOR = "smallrye-kafka";

    private KafkaTopics() {
    }

    /** Every topic that a channel on the Kafka connector reads or writes. */
    static Set<String> used(Config config) {
        Set<String> topics = new TreeSet<>();
        for (String name : config.getPropertyNames()) {
            Matcher channel = KAFKA_CHANNEL.matcher(name);
            if (channel.matches() && config.getOptionalValue(name, String.class).filter(KAFKA_CONNECTOR::equals).isPresent()) {
                topics.add(topic(config, channel.group(1), channel.group(2)));
            }
        }
        return topics;
    }

    /** The topic of a channel: its {@code topic} attribute, else the channel's name (as the connector has it). */
    static String topic(Config config, String direction, String channel) {
        return config.getOptionalValue("mp.messaging." + direction + "." + channel + ".topic", String.class).orElse(channel);
    }
}
