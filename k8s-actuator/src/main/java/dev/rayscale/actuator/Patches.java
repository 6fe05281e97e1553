package dev.rayscale.actuator;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ray.v1.RayCluster;
import io.ray.v1.rayclusterspec.WorkerGroupSpecs;
import java.util.List;
import java.util.Map;

/**
 * The one JSON Patch (RFC 6902) a decision becomes: {@code test} operations on exactly the fields the
 * decision relied on — the group's name at its index, its {@code replicas}, its
 * {@code scaleStrategy.workersToDelete} — then the new values and the applied-decision mark. If anyone
 * changed those fields meanwhile, the API server refuses the whole patch (422) and nothing is
 * overwritten. Only these paths are touched; the rest of the RayCluster belongs to others.
 */
final class Patches {

    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    private Patches() {
    }

    static String build(RayCluster cluster, List<GroupPlan> groups, AppliedMark mark) {
        ArrayNode patch = JSON.arrayNode();
        for (GroupPlan group : groups) {
            if (!group.changes()) {
                continue;
            }
            String path = "/spec/workerGroupSpecs/" + group.index;
            patch.add(op("test", path + "/groupName").put("value", group.name));
            if (group.spec.getReplicas() != null) {
                patch.add(op("test", path + "/replicas").put("value", group.spec.getReplicas()));
            }
            if (group.spec.getScaleStrategy() != null && group.spec.getScaleStrategy().getWorkersToDelete() != null) {
                patch.add(op("test", path + "/scaleStrategy/workersToDelete").set("value", strings(workersToDelete(group.spec))));
            }
            patch.add(op(group.spec.getReplicas() != null ? "replace" : "add", path + "/replicas").put("value", group.replicasAfter()));
            ObjectNode strategy = JSON.objectNode();
            strategy.set("workersToDelete", strings(group.workersToDeleteAfter()));
            patch.add(op("add", path + "/scaleStrategy").set("value", strategy));
        }
        Map<String, String> annotations = cluster.getMetadata().getAnnotations();
        if (annotations == null) {
            patch.add(op("add", "/metadata/annotations").set("value", JSON.objectNode()));
        }
        patch.add(op("add", "/metadata/annotations/" + escape(AppliedMark.SEQUENCE)).put("value", String.valueOf(mark.sequence())));
        patch.add(op("add", "/metadata/annotations/" + escape(AppliedMark.DECISION)).put("value", mark.decisionId()));
        return patch.toString();
    }

    static List<String> workersToDelete(WorkerGroupSpecs group) {
        if (group.getScaleStrategy() == null || group.getScaleStrategy().getWorkersToDelete() == null) {
            return List.of();
        }
        return group.getScaleStrategy().getWorkersToDelete();
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
