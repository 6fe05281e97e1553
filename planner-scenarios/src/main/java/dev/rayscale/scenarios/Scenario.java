package dev.rayscale.scenarios;

import com.fasterxml.jackson.databind.JsonNode;
import dev.rayscale.events.ClusterRef;
import dev.rayscale.events.ClusterSnapshot;
import dev.rayscale.events.Demand;
import dev.rayscale.events.GangDemand;
import dev.rayscale.events.GcsSource;
import dev.rayscale.events.HeadGroup;
import dev.rayscale.events.KubernetesSource;
import dev.rayscale.events.NodeStatus;
import dev.rayscale.events.PendingPod;
import dev.rayscale.events.PlacementStrategy;
import dev.rayscale.events.Quantity;
import dev.rayscale.events.RayNode;
import dev.rayscale.events.ResourceConstraint;
import dev.rayscale.events.Resources;
import dev.rayscale.events.ScalingPolicy;
import dev.rayscale.events.ShapeCount;
import dev.rayscale.events.SourceHealth;
import dev.rayscale.events.TaskDemand;
import dev.rayscale.events.UpscalingMode;
import dev.rayscale.events.WorkerGroup;
import dev.rayscale.events.codec.EventJson;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A planner scenario in the planner-scenarios format (a cluster situation as Ray's autoscaler sees
 * it: node types, nodes, launches in flight, demand), read as a cluster snapshot, so that the planner
 * can be held against the answers Ray's own scheduler gave.
 *
 * <p>Node types become worker groups (in the file's order, which breaks score ties); the head node
 * belongs to a head group of its own. {@code launching} entries are replicas asked for without pods;
 * pending nodes are pods without Ray nodes; {@code idle_timeout_s: null} turns idle removal off.
 */
public final class Scenario {

    /** A scenario's "now": its pods were all created at this instant. */
    public static final Instant OBSERVED_AT = Instant.parse("2026-01-01T00:00:00Z");
    /** Stands for Ray's "no idle timeout": a century. */
    static final long NO_IDLE_TIMEOUT_SECONDS = 100L * 365 * 24 * 3600;

    private final JsonNode root;

    private Scenario(JsonNode root) {
        this.root = root;
    }

    public static Scenario read(Path file) throws IOException {
        return new Scenario(EventJson.mapper().readTree(file.toFile()));
    }

    public static Scenario of(JsonNode root) {
        return new Scenario(root);
    }

    public String name() {
        return root.path("name").asText("scenario");
    }

    /**
     * The scenario as a snapshot.
     *
     * @param ignoreUpscalingSpeed plan as Ray's scheduler does, without any launch-rate limit
     */
    public ClusterSnapshot snapshot(boolean ignoreUpscalingSpeed) {
        String headType = root.path("head_node_type").asText();
        String headGroup = headType + "-head";
        JsonNode types = root.path("node_types");
        Map<String, Integer> workers = new HashMap<>();
        List<RayNode> nodes = new ArrayList<>();
        List<PendingPod> pending = new ArrayList<>();
        for (JsonNode node : root.path("nodes")) {
            String id = node.path("id").asText();
            String type = node.path("type").asText();
            boolean head = "head".equals(node.path("kind").asText());
            if (!head) {
                workers.merge(type, 1, Integer::sum);
            }
            if ("pending".equals(node.path("status").asText())) {
                if (!head) {
                    pending.add(new PendingPod(id, null, type, "Pending", null, OBSERVED_AT));
                }
                continue;
            }
            Resources total = node.has("total") ? resources(node.path("total")) : resources(types.path(type).path("resources"));
            Resources available = node.has("available") ? resources(node.path("available")) : total;
            long idleMs = Quantity.of(node.path("idle_s").decimalValue().multiply(BigDecimal.valueOf(1000))).units() / Quantity.SCALE;
            nodes.add(new RayNode(id, id, null, head ? headGroup : type, idleMs > 0 ? NodeStatus.IDLE : NodeStatus.RUNNING,
                    total, available, idleMs, Map.of(), null, List.of()));
        }
        JsonNode launching = root.path("launching");
        List<WorkerGroup> groups = new ArrayList<>();
        for (Map.Entry<String, JsonNode> type : iterable(types)) {
            String name = type.getKey();
            int min = type.getValue().path("min_workers").asInt(0);
            int max = type.getValue().path("max_workers").asInt(0);
            int replicas = workers.getOrDefault(name, 0) + launching.path(name).asInt(0);
            if (max > 0 || min > 0 || replicas > 0) {
                groups.add(new WorkerGroup(name, groups.size(), replicas, min, max, 1,
                        resources(type.getValue().path("resources")), Map.of(), List.of(), null, false));
            }
        }
        JsonNode speed = root.path("upscaling_speed");
        ScalingPolicy policy = new ScalingPolicy(UpscalingMode.DEFAULT,
                ignoreUpscalingSpeed || speed.isMissingNode() || speed.isNull() ? null : speed.decimalValue(),
                root.path("idle_timeout_s").isNumber() ? root.path("idle_timeout_s").asLong() : NO_IDLE_TIMEOUT_SECONDS,
                root.path("max_workers").isNumber() ? root.path("max_workers").asInt() : null,
                ignoreUpscalingSpeed ? Integer.MAX_VALUE : null,
                null, false, false);
        return new ClusterSnapshot(ClusterSnapshot.SCHEMA_VERSION, "scenario-" + name(), new ClusterRef("scenarios", name(), null), 1,
                OBSERVED_AT, new SourceHealth(GcsSource.ok(1, "scenario"), KubernetesSource.ok("1", 1)), policy,
                new HeadGroup(headGroup, resources(types.path(headType).path("resources")), Map.of()),
                groups, nodes, pending, demand());
    }

    private Demand demand() {
        List<TaskDemand> tasks = new ArrayList<>();
        for (JsonNode demand : root.path("resource_demands")) {
            tasks.add(new TaskDemand(resources(demand.path("shape")), demand.path("count").asLong()));
        }
        List<GangDemand> gangs = new ArrayList<>();
        for (JsonNode group : root.path("placement_groups")) {
            List<Resources> bundles = new ArrayList<>();
            group.path("bundles").forEach(bundle -> bundles.add(resources(bundle)));
            gangs.add(new GangDemand(group.path("id").asText(), PlacementStrategy.valueOf(group.path("strategy").asText()), bundles, null));
        }
        List<ShapeCount> constraint = new ArrayList<>();
        for (JsonNode bundle : root.path("resource_constraints")) {
            constraint.add(new ShapeCount(resources(bundle.path("shape")), bundle.path("count").asLong()));
        }
        return new Demand(tasks, gangs, constraint.isEmpty() ? List.of() : List.of(new ResourceConstraint(constraint)));
    }

    static Resources resources(JsonNode shape) {
        Map<String, Quantity> amounts = new LinkedHashMap<>();
        for (Map.Entry<String, JsonNode> entry : iterable(shape)) {
            amounts.put(entry.getKey(), Quantity.of(entry.getValue().decimalValue()));
        }
        return Resources.of(amounts);
    }

    private static Iterable<Map.Entry<String, JsonNode>> iterable(JsonNode object) {
        return object::fields;
    }
}
