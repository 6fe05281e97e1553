package dev.rayscale.events.reading;

import dev.rayscale.events.ScaleDecision;
import dev.rayscale.events.codec.DecisionDeserializer;
import java.io.PrintStream;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.StringDeserializer;

/** The "Reading the topics" example of the README: every decision for the clusters, as it is made. */
public final class FollowDecisions {

    public static void main(String[] args) {
        try (Consumer<String, ScaleDecision> consumer = new KafkaConsumer<>(Map.of("bootstrap.servers", args[0],
                "group.id", "my-dashboard", "auto.offset.reset", "earliest"), new StringDeserializer(), new DecisionDeserializer())) {
            follow(consumer, Duration.ofSeconds(1), Integer.MAX_VALUE, System.out);
        }
    }

    /** Prints one line per decision: the cluster, what it changes, and why. */
    static void follow(Consumer<String, ScaleDecision> consumer, Duration poll, int rounds, PrintStream out) {
        consumer.subscribe(List.of("rayscale.decisions"));
        for (int round = 0; round < rounds; round++) {
            consumer.poll(poll).forEach(record -> out.println(record.key() + " " + record.value().groups().stream()
                    .map(g -> g.name() + " " + g.currentReplicas() + "->" + g.targetReplicas()).toList()
                    + ": " + String.join("; ", record.value().reasons())));
        }
    }
}
