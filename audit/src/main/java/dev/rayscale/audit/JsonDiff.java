package dev.rayscale.audit;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/** The fields where two JSON documents differ, as paths with both values, the first few only. */
final class JsonDiff {

    private JsonDiff() {
    }

    static List<String> between(JsonNode recorded, JsonNode replayed, int limit) {
        List<String> differences = new ArrayList<>();
        walk("$", recorded, replayed, differences, limit);
        return differences;
    }

    private static void walk(String path, JsonNode recorded, JsonNode replayed, List<String> differences, int limit) {
        if (differences.size() >= limit || recorded.equals(replayed)) {
            return;
        }
        if (recorded.isObject() && replayed.isObject()) {
            Set<String> names = new LinkedHashSet<>();
            recorded.fieldNames().forEachRemaining(names::add);
            replayed.fieldNames().forEachRemaining(names::add);
            for (String name : names) {
                walk(path + "." + name, recorded.path(name), replayed.path(name), differences, limit);
            }
        } else if (recorded.isArray() && replayed.isArray() && recorded.size() == replayed.size()) {
            Iterator<JsonNode> left = recorded.elements();
            Iterator<JsonNode> right = replayed.elements();
            for (int i = 0; left.hasNext(); i++) {
                walk(path + "[" + i + "]", left.next(), right.next(), differences, limit);
            }
        } else {
            differences.add(path + ": recorded " + shown(recorded) + ", replayed " + shown(replayed));
        }
    }

    private static String shown(JsonNode value) {
        if (value.isMissingNode()) {
            return "(absent)";
        }
        String text = value.toString();
        return text.length() > 120 ? text.substring(0, 117) + "..." : text;
    }
}
