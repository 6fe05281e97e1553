package dev.rayscale.events;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.rayscale.events.codec.EventSchemas;

/**
 * The shipped schemas with every object that declares {@code properties} closed to others. The
 * shipped schemas stay open (readers ignore fields added later); the tests hold documents to the
 * closed variant so that a field named differently in Java and in the schema cannot slip through.
 */
final class StrictSchemas {

    static final EventSchemas STRICT = new EventSchemas(StrictSchemas::close);

    private StrictSchemas() {
    }

    static JsonNode close(JsonNode schema) {
        JsonNode copy = schema.deepCopy();
        closeInPlace(copy);
        return copy;
    }

    private static void closeInPlace(JsonNode node) {
        if (node instanceof ObjectNode object && object.has("properties") && object.get("properties").isObject()
                && !object.has("additionalProperties")) {
            object.put("additionalProperties", false);
        }
        // An "if" only tests a property or two; closing it would make every real document miss it.
        node.fields().forEachRemaining(field -> {
            if (!field.getKey().equals("if")) {
                closeInPlace(field.getValue());
            }
        });
        if (node.isArray()) {
            node.forEach(StrictSchemas::closeInPlace);
        }
    }
}
