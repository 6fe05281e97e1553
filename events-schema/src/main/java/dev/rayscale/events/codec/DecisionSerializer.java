package dev.rayscale.events.codec;

import dev.rayscale.events.ScaleDecision;

/** Kafka serializer for {@link ScaleDecision} events. */
public class DecisionSerializer extends EventSerializer<ScaleDecision> {

    public DecisionSerializer() {
        super(EventCodec.DECISIONS);
    }
}
