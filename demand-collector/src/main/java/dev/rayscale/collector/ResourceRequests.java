package dev.rayscale.collector;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import dev.rayscale.events.Quantity;
import dev.rayscale.events.ResourceConstraint;
import dev.rayscale.events.Resources;
import dev.rayscale.events.ShapeCount;
import dev.rayscale.events.codec.EventJson;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The {@code request_resources()} floor as the GCS's KV holds it: every call, whichever client path, writes its bundles
 * to the key {@code autoscaler_resource_request} (fact D48; {@code commands.request_resources}), while only a call on the
 * v2 path also fills the constraint {@code GetClusterResourceState} returns. So the KV is what the latest call asked for.
 * Its value is a JSON list: bare bundles ({@code [{"CPU": 1}, ...]}) before Ray wrote label selectors, entries
 * {@code {"resources": {...}, "label_selector": {...}}} since (PR 54843); one entry per CPU of {@code num_cpus}, then one
 * per bundle. Identical bundles are counted together, as the SDK does for the GCS.
 *
 * <p>A tenant's driver writes it, so it is read as a stream and bounded as it is read, before anything is kept: at most
 * {@link #MAX_ENTRIES} entries, {@link #MAX_RESOURCES} resources a bundle and {@link #MAX_SHAPES} different bundles,
 * amounts finite and not negative; anything else is refused with a reason. Label selectors of requested bundles are not
 * kept: the snapshot's constraints have none, so such a bundle is packed as if it selected nothing.
 */
final class ResourceRequests {

    /** Bundles read at most; a request_resources(num_cpus=...) of more CPUs than this is refused, not truncated. */
    static final int MAX_ENTRIES = 100_000;
    /** Resources one bundle may name. */
    static final int MAX_RESOURCES = 64;
    /** Different bundles kept at most (a request is usually a handful of shapes). */
    static final int MAX_SHAPES = 1_000;

    private ResourceRequests() {
    }

    /**
     * The constraint the KV's value asks for; an empty list when it asks for nothing.
     *
     * @throws IllegalArgumentException if the value is not a list of bundles, or larger than Rayscale reads
     */
    static List<ResourceConstraint> parse(byte[] json) {
        Map<Resources, Long> counts = new LinkedHashMap<>();
        try (JsonParser parser = EventJson.mapper().getFactory().createParser(json)) {
            if (parser.nextToken() != JsonToken.START_ARRAY) {
                throw new IllegalArgumentException("autoscaler_resource_request is not a JSON list");
            }
            int entries = 0;
            while (parser.nextToken() != JsonToken.END_ARRAY) {
                if (++entries > MAX_ENTRIES) {
                    throw new IllegalArgumentException("autoscaler_resource_request lists more than " + MAX_ENTRIES + " bundles, the most Rayscale reads");
                }
                Resources shape = entry(parser);
                if (!shape.isEmpty()) {
                    counts.merge(shape, 1L, Long::sum);
                    if (counts.size() > MAX_SHAPES) {
                        throw new IllegalArgumentException("autoscaler_resource_request asks for more than " + MAX_SHAPES + " different bundles");
                    }
                }
            }
        } catch (JsonProcessingException unreadable) {
            throw new IllegalArgumentException("autoscaler_resource_request is not JSON: " + unreadable.getOriginalMessage());
        } catch (IOException unreadable) {
            throw new IllegalArgumentException("autoscaler_resource_request cannot be read: " + unreadable.getMessage());
        }
        if (counts.isEmpty()) {
            return List.of();
        }
        return List.of(new ResourceConstraint(counts.entrySet().stream().map(count -> new ShapeCount(count.getKey(), count.getValue())).toList()));
    }

    /** One entry: a bare bundle, or {@code {"resources": bundle, "label_selector": ...}}. */
    private static Resources entry(JsonParser parser) throws IOException {
        if (parser.currentToken() != JsonToken.START_OBJECT) {
            throw new IllegalArgumentException("autoscaler_resource_request has an entry that is not an object");
        }
        Map<String, Quantity> amounts = new TreeMap<>();
        Resources wrapped = null;
        while (parser.nextToken() == JsonToken.FIELD_NAME) {
            String field = parser.currentName();
            JsonToken value = parser.nextToken();
            if (field.equals("resources") && value == JsonToken.START_OBJECT) {
                wrapped = entry(parser);
            } else if (field.equals("label_selector") && value.isStructStart()) {
                parser.skipChildren();
            } else {
                amount(parser, field, value, amounts);
            }
        }
        return wrapped != null ? wrapped : Resources.of(amounts);
    }

    private static void amount(JsonParser parser, String name, JsonToken value, Map<String, Quantity> amounts) throws IOException {
        if (!value.isNumeric() || !Double.isFinite(parser.getDoubleValue()) || parser.getDoubleValue() < 0) {
            throw new IllegalArgumentException("autoscaler_resource_request asks for " + abbreviated(name) + " = "
                    + abbreviated(parser.getText()) + ", not a finite amount");
        }
        if (amounts.size() >= MAX_RESOURCES) {
            throw new IllegalArgumentException("autoscaler_resource_request has a bundle of more than " + MAX_RESOURCES + " resources");
        }
        if (parser.getDoubleValue() > 0) {
            amounts.put(name, Quantity.ofDouble(parser.getDoubleValue()));
        }
    }

    private static String abbreviated(String text) {
        return text.length() > 80 ? text.substring(0, 80) + "..." : text;
    }
}
