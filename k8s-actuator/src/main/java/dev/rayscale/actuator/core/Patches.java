package dev.rayscale.actuator.core;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.rayscale.events.Annotations;
import java.util.List;
import java.util.TreeMap;

/**
 * The one JSON Patch (RFC 6902) a plan becomes: {@code test} operations on everything the decision
 * relied on — the spec as read (its generation: so a cluster whose in-tree autoscaler was turned on, or whose
 * groups someone else changed, after the read is not written), the opt-in, the RayCluster's uid (not a namesake re-created since), the applied-decision mark (no
 * other decision applied meanwhile), and every group's name at its index, {@code replicas} and
 * {@code scaleStrategy.workersToDelete}, changed or not — then the new values, the new mark and what
 * Rayscale wrote to each group ({@link WrittenGroups}). If
 * anything tested changed, the API server refuses the whole patch (422) and nothing is overwritten.
 * Only these paths are touched; the rest of the RayCluster belongs to others.
 */
public final class Patches {

    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;
    private static final String ANNOTATIONS = "/metadata/annotations/";

    private Patches() {
    }

    public static String build(ActuationPlan plan, AppliedMark mark) {
        ArrayNode patch = JSON.arrayNode();
        if (plan.cluster().generation() != null) {
            patch.add(op("test", "/metadata/generation").put("value", plan.cluster().generation()));
        }
        patch.add(op("test", ANNOTATIONS + escape(Annotations.AUTOSCALING)).put("value", Annotations.AUTOSCALING_ENABLED));
        return build(plan, mark, patch).toString();
    }

    /**
     * The patch of a plan made on {@code lastWrite}'s RayCluster instead of one read now: first {@code test} operations
     * that its spec (its generation) and its annotations (the opt-in, dry-run and applied-decision ones among them) are
     * still as that write left them, then the plan's own. Its status may have changed; nothing a plan relies on is there.
     */
    public static String buildUnread(ActuationPlan plan, AppliedMark mark, LastWrite lastWrite) {
        ArrayNode patch = JSON.arrayNode();
        patch.add(op("test", "/metadata/generation").put("value", lastWrite.generation()));
        ObjectNode annotations = JSON.objectNode();
        new TreeMap<>(lastWrite.annotations()).forEach(annotations::put);
        patch.add(op("test", "/metadata/annotations").set("value", annotations));
        return build(plan, mark, patch).toString();
    }

    private static ArrayNode build(ActuationPlan plan, AppliedMark mark, ArrayNode patch) {
        ObservedCluster cluster = plan.cluster();
        if (cluster.uid() != null) {
            patch.add(op("test", "/metadata/uid").put("value", cluster.uid()));
        }
        if (cluster.mark().present()) {
            patch.add(op("test", ANNOTATIONS + escape(AppliedMark.SEQUENCE)).put("value", String.valueOf(cluster.mark().sequence())));
            patch.add(op("test", ANNOTATIONS + escape(AppliedMark.DECISION)).put("value", cluster.mark().decisionId()));
        }
        for (GroupPlan group : plan.groups()) {
            String path = "/spec/workerGroupSpecs/" + group.index();
            patch.add(op("test", path + "/groupName").put("value", group.name()));
            if (group.spec.replicas() != null) {
                patch.add(op("test", path + "/replicas").put("value", group.spec.replicas()));
            }
            if (group.spec.workersToDeleteSet()) {
                patch.add(op("test", path + "/scaleStrategy/workersToDelete").set("value", strings(group.spec.workersToDelete())));
            }
        }
        for (GroupPlan group : plan.groups()) {
            if (!group.changes()) {
                continue;
            }
            String path = "/spec/workerGroupSpecs/" + group.index();
            patch.add(op(group.spec.replicas() != null ? "replace" : "add", path + "/replicas").put("value", group.replicasAfter()));
            ObjectNode strategy = JSON.objectNode();
            strategy.set("workersToDelete", strings(group.workersToDeleteAfter()));
            patch.add(op("add", path + "/scaleStrategy").set("value", strategy));
        }
        if (!cluster.annotated()) {
            patch.add(op("add", "/metadata/annotations").set("value", JSON.objectNode()));
        }
        patch.add(op("add", ANNOTATIONS + escape(AppliedMark.SEQUENCE)).put("value", String.valueOf(mark.sequence())));
        patch.add(op("add", ANNOTATIONS + escape(AppliedMark.DECISION)).put("value", mark.decisionId()));
        patch.add(op("add", ANNOTATIONS + escape(WrittenGroups.ANNOTATION)).put("value", WrittenGroups.after(plan)));
        return patch;
    }

    private static ObjectNode op(String op, String path) {
        return JSON.objectNode().put("op", op).put("path", path);
    }

    private static ArrayNode strings(List<String> values) {
        ArrayNode array = JSON.arrayNode();
        values.forEach(array::add);
        return array;
    }

    /** JSON Pointer escaping: {@code ~} as {@code ~0}, {@code /} as {@code ~1}. */
    static String escape(String key) {
        return key.replace("~", "~0").replace("/", "~1");
    }
}
