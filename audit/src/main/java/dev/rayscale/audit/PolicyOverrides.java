package dev.rayscale.audit;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.rayscale.events.ClusterSnapshot;
import dev.rayscale.events.PlannerDefaults;
import dev.rayscale.events.ScalingPolicy;
import dev.rayscale.events.WorkerGroup;
import dev.rayscale.events.codec.EventJson;
import dev.rayscale.planner.core.PlannerSettings;
import java.io.IOException;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * {@code what-if --set KEY=VALUE}: a changed policy, named as the events name it. A KEY is a field of a
 * snapshot's {@code policy} (it then holds for every cluster, over what the cluster says), a field of
 * one worker group as {@code group.NAME.FIELD} ({@code *} for every group), or one of the planner's own
 * defaults as {@code planner.FIELD} (the fields of a decision's {@code planner.defaults}).
 */
public final class PolicyOverrides {

    private static final Set<String> POLICY = fields(ScalingPolicy.class);
    private static final Set<String> GROUP = fields(WorkerGroup.class);
    private static final Set<String> PLANNER = fields(PlannerDefaults.class);

    private record Setting(String scope, String group, String field, JsonNode value, String text) {
    }

    private final List<Setting> settings;
    private final ObjectMapper mapper = EventJson.mapper();

    private PolicyOverrides(List<Setting> settings) {
        this.settings = settings;
    }

    /** One {@code KEY=VALUE}, trimmed; shared with {@code demo --set}, which names its settings the same way. */
    public record Assignment(String key, String value) {

        public static Assignment parse(String assignment) {
            int equals = assignment.indexOf('=');
            if (equals <= 0) {
                throw new IllegalArgumentException("'" + assignment + "' is not KEY=VALUE");
            }
            return new Assignment(assignment.substring(0, equals).trim(), assignment.substring(equals + 1).trim());
        }
    }

    public static PolicyOverrides parse(List<String> assignments) {
        List<Setting> settings = new ArrayList<>();
        for (String assignment : assignments) {
            Assignment parsed = Assignment.parse(assignment);
            String key = parsed.key();
            JsonNode value = value(parsed.value());
            String[] parts = key.split("\\.");
            if (parts.length == 1 && POLICY.contains(key)) {
                settings.add(new Setting("policy", null, key, value, assignment));
            } else if (parts.length == 2 && parts[0].equals("planner") && PLANNER.contains(parts[1])) {
                settings.add(new Setting("planner", null, parts[1], value, assignment));
            } else if (parts.length == 3 && parts[0].equals("group") && GROUP.contains(parts[2])) {
                settings.add(new Setting("group", parts[1], parts[2], value, assignment));
            } else {
                throw new IllegalArgumentException("unknown setting '" + key + "'; known: " + String.join(", ", POLICY)
                        + "; group.NAME.{" + String.join(",", GROUP) + "} (NAME * for every group); planner.{" + String.join(",", PLANNER) + "}");
            }
        }
        return new PolicyOverrides(settings);
    }

    public boolean isEmpty() {
        return settings.isEmpty();
    }

    public String describe() {
        return settings.stream().map(Setting::text).collect(Collectors.joining(" "));
    }

    /** The snapshot as if its cluster's policy and groups said what was set. */
    public ClusterSnapshot apply(ClusterSnapshot snapshot) {
        if (settings.stream().noneMatch(setting -> !setting.scope().equals("planner"))) {
            return snapshot;
        }
        ObjectNode tree = mapper.valueToTree(snapshot);
        for (Setting setting : settings) {
            if (setting.scope().equals("policy")) {
                ((ObjectNode) tree.get("policy")).set(setting.field(), setting.value());
            } else if (setting.scope().equals("group")) {
                for (JsonNode group : (ArrayNode) tree.get("workerGroups")) {
                    if (setting.group().equals("*") || setting.group().equals(group.path("name").asText())) {
                        ((ObjectNode) group).set(setting.field(), setting.value());
                    }
                }
            }
        }
        return read(tree, ClusterSnapshot.class);
    }

    /** The planner's settings with its defaults changed as set. */
    public PlannerSettings apply(PlannerSettings settings) {
        if (this.settings.stream().noneMatch(setting -> setting.scope().equals("planner"))) {
            return settings;
        }
        ObjectNode tree = mapper.valueToTree(settings.recorded());
        this.settings.stream().filter(setting -> setting.scope().equals("planner")).forEach(setting -> tree.set(setting.field(), setting.value()));
        return PlannerSettings.of(read(tree, PlannerDefaults.class), settings.version());
    }

    private <T> T read(JsonNode tree, Class<T> type) {
        try {
            return mapper.treeToValue(tree, type);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("the policy " + describe() + " does not give a valid " + type.getSimpleName() + ": "
                    + EventJson.problem(e), e);
        }
    }

    /** A number, true/false or null as JSON; anything else as text, upper-cased when it names an enum constant. */
    private static JsonNode value(String text) {
        ObjectMapper mapper = EventJson.mapper();
        try {
            JsonNode parsed = mapper.readTree(text);
            if (parsed != null && (parsed.isNumber() || parsed.isBoolean() || parsed.isNull())) {
                return parsed;
            }
        } catch (IOException notJson) {
            // text
        }
        return mapper.getNodeFactory().textNode(text.matches("[A-Za-z_]+") ? text.toUpperCase(Locale.ROOT) : text);
    }

    private static Set<String> fields(Class<?> record) {
        return Arrays.stream(record.getRecordComponents()).map(RecordComponent::getName)
                .collect(Collectors.toCollection(LinkedHashSet::new));
    }
}
