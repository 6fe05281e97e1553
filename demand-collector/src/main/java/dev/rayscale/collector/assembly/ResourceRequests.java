package dev.rayscale.collector.assembly;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.rayscale.events.Quantity;
import dev.rayscale.events.ResourceConstraint;
import dev.rayscale.events.Resources;
import dev.rayscale.events.ShapeCount;
import dev.rayscale.events.codec.EventJson;
import java.util.Iterator;
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
 * <p>A tenant's driver writes it, so it is bounded where read: at most {@link #MAX_ENTRIES} entries, amounts finite and not
 * negative; anything else is refused with a reason, and the GCS's own constraint is used instead. Label selectors of
 * requested bundles are not kept: the snapshot's constraints have none, so such a bundle is packed as if it selected nothing.
 */
public final class ResourceRequests {

    /** Bundles read at most; a request_resources(num_cpus=...) of more CPUs than this is refused, not truncated. */
    public static final int MAX_ENTRIES = 100_000;

    private ResourceRequests() {
    }

    /**
     * The constraint the KV's value asks for; an empty list when it asks for nothing.
     *
     * @throws IllegalArgumentException if the value is not a list of bundles, or is larger than Rayscale reads
     */
    public static List<ResourceConstraint> parse(String json) {
        JsonNode entries;
        try {
            entries = EventJson.mapper().readTree(json);
        } catch (JsonProcessingException unreadable) {
            throw new IllegalArgumentException("autoscaler_resource_request is not JSON: " + EventJson.problem(unreadable));
        }
        if (entries == null || !entries.isArray()) {
            throw new IllegalArgumentException("autoscaler_resource_request is not a JSON list");
        }
        if (entries.size() > MAX_ENTRIES) {
            throw new IllegalArgumentException("autoscaler_resource_request lists " + entries.size() + " bundles; Rayscale reads at most "
                    + MAX_ENTRIES);
        }
        Map<Resources, Long> counts = new LinkedHashMap<>();
        for (JsonNode entry : entries) {
            JsonNode bundle = entry.has("resources") ? entry.get("resources") : entry;
            Resources shape = shape(bundle);
            if (!shape.isEmpty()) {
                counts.merge(shape, 1L, Long::sum);
            }
        }
        if (counts.isEmpty()) {
            return List.of();
        }
        return List.of(new ResourceConstraint(counts.entrySet().stream().map(count -> new ShapeCount(count.getKey(), count.getValue())).toList()));
    }

    private static Resources shape(JsonNode bundle) {
        if (!bundle.isObject()) {
            throw new IllegalArgumentException("autoscaler_resource_request has a bundle that is not an object: " + abbreviated(bundle));
        }
        Map<String, Quantity> amounts = new TreeMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> fields = bundle.fields(); fields.hasNext(); ) {
            Map.Entry<String, JsonNode> field = fields.next();
            JsonNode amount = field.getValue();
            if (!amount.isNumber() || !Double.isFinite(amount.asDouble()) || amount.asDouble() < 0) {
                throw new IllegalArgumentException("autoscaler_resource_request asks for " + field.getKey() + " = " + abbreviated(amount)
                        + ", not a finite amount");
            }
            if (amount.asDouble() > 0) {
                amounts.put(field.getKey(), Quantity.ofDouble(amount.asDouble()));
            }
        }
        return Resources.of(amounts);
    }

    private static String abbreviated(JsonNode value) {
        String text = value.toString();
        return text.length() > 80 ? text.substring(0, 80) + "..." : text;
    }
}
