package dev.rayscale.tune;

import dev.rayscale.audit.PolicyOverrides;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The policies a tune tries: every combination of the values given for each key ({@code --grid KEY=V1,V2,...}, keys as
 * {@code what-if --set} names them), each a change of the recorded policy.
 */
final class PolicyGrid {

    /** Without --grid: the idle timeout and the upscaling mode, the two knobs every cluster has. */
    static final List<String> DEFAULT = List.of("idleTimeoutSeconds=15,30,60,120,300", "upscalingMode=CONSERVATIVE,DEFAULT");

    /** One policy tried: its assignments, and the overrides they make. */
    record Policy(List<String> assignments, PolicyOverrides overrides) {

        String describe() {
            return assignments.isEmpty() ? "recorded" : String.join(",", assignments);
        }
    }

    private PolicyGrid() {
    }

    /** The combinations of {@code axes}; a bad key or value is an {@link IllegalArgumentException} naming it. */
    static List<Policy> of(List<String> axes) {
        Map<String, List<String>> values = new LinkedHashMap<>();
        for (String axis : axes) {
            PolicyOverrides.Assignment assignment = PolicyOverrides.Assignment.parse(axis);
            List<String> listed = new ArrayList<>();
            for (String value : assignment.value().split(",")) {
                if (value.isBlank()) {
                    throw new IllegalArgumentException("--grid " + axis + " has an empty value");
                }
                listed.add(assignment.key() + "=" + value.trim());
            }
            values.merge(assignment.key(), listed, (a, b) -> {
                List<String> both = new ArrayList<>(a);
                both.addAll(b);
                return both;
            });
        }
        List<List<String>> combinations = List.of(List.of());
        for (List<String> axis : values.values()) {
            List<List<String>> grown = new ArrayList<>();
            for (List<String> combination : combinations) {
                for (String value : axis) {
                    List<String> next = new ArrayList<>(combination);
                    next.add(value);
                    grown.add(next);
                }
            }
            combinations = grown;
        }
        List<Policy> policies = new ArrayList<>();
        for (List<String> combination : combinations) {
            policies.add(new Policy(combination, PolicyOverrides.parse(combination)));
        }
        return policies;
    }
}
