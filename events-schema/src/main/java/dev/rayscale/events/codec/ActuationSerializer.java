package dev.rayscale.events.codec;

import dev.rayscale.events.ActuationResult;

/** Kafka serializer for {@link ActuationResult} events. */
public class ActuationSerializer extends EventSerializer<ActuationResult> {

    public ActuationSerializer() {
        super(EventCodec.ACTUATIONS);
    }
}
