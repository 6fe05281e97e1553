package dev.rayscale.events.codec;

import dev.rayscale.events.ActuationResult;

/** Kafka deserializer for {@link ActuationResult} events. */
public class ActuationDeserializer extends EventDeserializer<ActuationResult> {

    public ActuationDeserializer() {
        super(EventCodec.ACTUATIONS);
    }
}
