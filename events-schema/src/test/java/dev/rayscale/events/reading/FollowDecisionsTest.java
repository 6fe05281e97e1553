package dev.rayscale.events.reading;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rayscale.events.ScaleDecision;
import dev.rayscale.events.codec.DecisionDeserializer;
import dev.rayscale.events.codec.DecisionSerializer;
import dev.rayscale.events.codec.EventCodec;
import dev.rayscale.events.codec.EventSchemas;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.record.TimestampType;
import org.junit.jupiter.api.Test;

/** The README's Java example, fed a decision as a consumer gets it: written by the serializer, read by the deserializer. */
class FollowDecisionsTest {

    @Test
    void printsEachDecisionWithItsClusterChangeAndReasons() {
        ScaleDecision decision = EventCodec.DECISIONS.decode(EventSchemas.readResource("examples/scale-decision/walkthrough.json"));
        RecordHeaders headers = new RecordHeaders();
        ScaleDecision received;
        try (DecisionSerializer serializer = new DecisionSerializer(); DecisionDeserializer deserializer = new DecisionDeserializer()) {
            received = deserializer.deserialize("rayscale.decisions", headers, serializer.serialize("rayscale.decisions", headers, decision));
        }
        TopicPartition partition = new TopicPartition("rayscale.decisions", 0);
        MockConsumer<String, ScaleDecision> consumer = new MockConsumer<>("earliest");
        consumer.schedulePollTask(() -> {
            consumer.rebalance(List.of(partition));
            consumer.updateBeginningOffsets(Map.of(partition, 0L));
            consumer.addRecord(new ConsumerRecord<>("rayscale.decisions", 0, 0, 0L, TimestampType.CREATE_TIME, 0, 0,
                    decision.cluster().id(), received, headers, Optional.empty()));
        });
        ByteArrayOutputStream out = new ByteArrayOutputStream();

        FollowDecisions.follow(consumer, Duration.ZERO, 2, new PrintStream(out, true, StandardCharsets.UTF_8));

        assertThat(out.toString(StandardCharsets.UTF_8)).isEqualTo(decision.cluster().id() + " [small-group 0->15]: "
                + String.join("; ", decision.reasons()) + System.lineSeparator());
    }
}
