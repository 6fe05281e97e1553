package dev.rayscale.actuator.core;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.util.List;
import java.util.Optional;

/**
 * The RayService's {@code spec.rayClusterConfig} replicas kept in step with its active RayCluster's. KubeRay's RayService
 * controller rebuilds the active cluster's whole spec from {@code rayClusterConfig} when worker groups are appended to it
 * or the operator is upgraded ({@code rayservice_controller.go}: {@code shouldUpdateCluster}, then {@code modifyRayCluster}
 * replaces spec, labels and annotations; fact D51), and with in-tree autoscaling off the operator then deletes the pods
 * above the rebuilt {@code replicas} in list order, busy or not (fact B6.27). The RayService's hash
 * ({@code ray.io/hash-without-replicas-and-workers-to-delete}) leaves replicas out, so writing them there rolls nothing out;
 * a pending cluster of a zero-downtime upgrade is built from them too, sized as the active one.
 */
public final class RayServiceReplicas {

    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;
    private static final String GROUPS = "/spec/rayClusterConfig/workerGroupSpecs/";

    private RayServiceReplicas() {
    }

    /**
     * The JSON Patch that sets each of {@code configGroups} (the RayService's {@code rayClusterConfig.workerGroupSpecs}) to
     * the replicas of the group at the same index in {@code written} (the RayCluster as Rayscale left it), testing that
     * each group is the one read and its replicas as read; empty when they already agree. Groups only one side has (the
     * RayService's appended ones, before its controller has rebuilt the cluster) are left alone.
     */
    public static Optional<String> patch(List<ObservedCluster.ObservedGroup> written, JsonNode configGroups) {
        if (configGroups == null || !configGroups.isArray()) {
            return Optional.empty();
        }
        ArrayNode patch = JSON.arrayNode();
        for (int index = 0; index < Math.min(written.size(), configGroups.size()); index++) {
            ObservedCluster.ObservedGroup group = written.get(index);
            JsonNode config = configGroups.get(index);
            JsonNode replicas = config.get("replicas");
            if (!group.name().equals(config.path("groupName").asText(null))
                    || replicas != null && replicas.isIntegralNumber() && replicas.asInt() == group.replicasOrZero()) {
                continue;
            }
            patch.add(JSON.objectNode().put("op", "test").put("path", GROUPS + index + "/groupName").put("value", group.name()));
            if (replicas != null) {
                patch.add(JSON.objectNode().put("op", "test").put("path", GROUPS + index + "/replicas").set("value", replicas));
            }
            patch.add(JSON.objectNode().put("op", replicas != null ? "replace" : "add").put("path", GROUPS + index + "/replicas")
                    .put("value", group.replicasOrZero()));
        }
        return patch.isEmpty() ? Optional.empty() : Optional.of(patch.toString());
    }
}
