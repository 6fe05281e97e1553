package dev.rayscale.events.codec;

import dev.rayscale.events.ScaleDecision;

/** Kafka deserializer for {@link ScaleDecision} events. */
public class DecisionDeserializer extends EventDeserializer<ScaleDecision> {

    public DecisionDeserializer() {
        super(EventCodec.DECISIONS);
    }
}
