package dev.rayscale.audit;

import com.fasterxml.jackson.core.JsonProcessingException;
import dev.rayscale.events.RayscaleEvent;
import dev.rayscale.events.codec.EventJson;

/** An event as indented JSON, exactly the fields it has on its topic. */
final class Pretty {

    private Pretty() {
    }

    static String json(RayscaleEvent event) {
        try {
            return EventJson.mapper().writerWithDefaultPrettyPrinter().writeValueAsString(event);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write " + event.id(), e);
        }
    }
}
