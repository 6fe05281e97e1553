package dev.rayscale.sim;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.protobuf.ByteString;
import dev.rayscale.gcs.RayKv;
import dev.rayscale.gcs.proto.ClusterResourceState;
import dev.rayscale.gcs.proto.GangResourceRequest;
import dev.rayscale.gcs.proto.NodeState;
import dev.rayscale.gcs.proto.NodeStatus;
import dev.rayscale.gcs.proto.ResourceRequest;
import dev.rayscale.gcs.proto.ResourceRequestByCount;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Supplier;

/**
 * The v1 monitor {@code ray start --head} runs in the head when {@code --no-monitor} is not given, as on every cluster
 * whose in-tree autoscaling is off ({@code monitor.py}; KubeRay adds {@code no-monitor} only with in-tree autoscaling on).
 * Without an autoscaling config it is read-only ({@code BASE_READONLY_CONFIG}, {@code ReadOnlyNodeProvider}): every
 * {@code AUTOSCALER_UPDATE_INTERVAL_S} (5 s) it reads the nodes and demand, and the {@code request_resources} bundles from
 * the KV, and overwrites {@code __autoscaling_status} with {@code load_metrics_report} and {@code autoscaler_report} — what
 * {@code ray status} formats on the v1 path. Its nodes are {@code node_<hex id>}, all active; it never launches, so nothing
 * is ever pending or failed. On Ray that writes {@code request_resources} entries with label selectors but cannot read
 * them ({@link RayRelease#v1MonitorFailsOnSelectorRequests()}) it fails and writes {@code __autoscaling_error}; its last
 * status stays. Guarded by {@link RaySim}'s lock.
 */
final class ReadOnlyMonitor {

    /** {@code AUTOSCALER_UPDATE_INTERVAL_S}. */
    static final double LOOP_SECONDS = 5;
    static final String FAILURE = "The autoscaler failed with the following error:\nTraceback (most recent call last):\n"
            + "  File \"/home/ray/anaconda3/lib/python3.11/site-packages/ray/autoscaler/_private/monitor.py\", line 398, in _run\n"
            + "    load_metrics_summary = self.load_metrics.summary()\n"
            + "TypeError: unhashable type: 'dict'";

    private static final ObjectMapper JSON = new ObjectMapper();

    private final RayRelease release;
    private double nextLoop;
    private boolean failed;
    /** {@code LoadMetrics.resource_requests}: kept while the KV holds nothing new ({@code if data:}). */
    private List<JsonNode> requests = List.of();

    ReadOnlyMonitor(RayRelease release) {
        this.release = release;
    }

    /** The head container started: a new monitor process, whose first loop runs at once. */
    void start(double now) {
        nextLoop = now;
        failed = false;
        requests = List.of();
    }

    /** Runs a loop if one is due. */
    void tickIfDue(double now, Supplier<ClusterResourceState> state, GcsKv kv) {
        if (failed || now < nextLoop) {
            return;
        }
        nextLoop = now + LOOP_SECONDS;
        readRequests(kv);
        if (failed) {
            kv.put(RayKv.AUTOSCALING_ERROR, ByteString.copyFromUtf8(FAILURE), true);
            return;
        }
        kv.put(RayKv.AUTOSCALING_STATUS, ByteString.copyFromUtf8(status(state.get(), Instant.now())), true);
    }

    private void readRequests(GcsKv kv) {
        String data = kv.text(RayKv.RESOURCE_REQUEST);
        if (data == null || data.isEmpty()) {
            return;
        }
        try {
            List<JsonNode> read = new ArrayList<>();
            for (JsonNode entry : JSON.readTree(data)) {
                if (entry.has("resources") && release.v1MonitorFailsOnSelectorRequests()) {
                    failed = true;
                    return;
                }
                JsonNode bundle = entry.has("resources") ? entry.get("resources") : entry;
                if (bundle.size() > 0) {
                    read.add(bundle);
                }
            }
            requests = read;
        } catch (JsonProcessingException unreadable) {
            // logger.exception("Error parsing resource requests"): the requests stay as they were.
        }
    }

    private String status(ClusterResourceState state, Instant now) {
        ObjectNode status = JSON.createObjectNode();
        status.put("time", now.getEpochSecond() + now.getNano() / 1e9);
        ObjectNode load = status.putObject("load_metrics_report");
        ObjectNode usage = load.putObject("usage");
        RayStatus.usedAndTotal(state).forEach((name, pair) -> usage.putArray(name).add(pair[0]).add(pair[1]));
        ObjectNode active = JSON.createObjectNode();
        for (NodeState node : state.getNodeStatesList()) {
            if (node.getStatus() != NodeStatus.DEAD) {
                active.put("node_" + HexFormat.of().formatHex(node.getNodeId().toByteArray()), 1);
            }
        }
        ArrayNode demand = load.putArray("resource_demand");
        for (ResourceRequestByCount request : state.getPendingResourceRequestsList()) {
            demand.addArray().add(dict(request.getRequest())).add(request.getCount());
        }
        List<JsonNode> pendingGroups = new ArrayList<>();
        for (GangResourceRequest gang : state.getPendingGangResourceRequestsList()) {
            if (gang.getRequestsCount() == 0) {
                continue;
            }
            ObjectNode group = JSON.createObjectNode();
            group.set("bundles", frequencies(gang.getRequestsList().stream().map(ReadOnlyMonitor::dict).toList()));
            group.put("strategy", RayStatus.strategy(gang));
            pendingGroups.add(group);
        }
        load.set("pg_demand", frequencies(pendingGroups));
        load.set("request_demand", frequencies(requests));
        ObjectNode autoscaler = status.putObject("autoscaler_report");
        autoscaler.set("active_nodes", active);
        autoscaler.putNull("idle_nodes");
        autoscaler.putArray("pending_nodes");
        autoscaler.putObject("pending_launches");
        autoscaler.putArray("failed_nodes");
        autoscaler.put("legacy", true);
        return status.toString();
    }

    /** Ray's {@code freq_of_dicts}: each distinct value with how often it came, in the order first seen. */
    private static ArrayNode frequencies(List<? extends JsonNode> values) {
        Map<String, JsonNode> first = new LinkedHashMap<>();
        Map<String, Long> counts = new LinkedHashMap<>();
        for (JsonNode value : values) {
            first.putIfAbsent(value.toString(), value);
            counts.merge(value.toString(), 1L, Long::sum);
        }
        ArrayNode frequencies = JSON.createArrayNode();
        counts.forEach((key, count) -> frequencies.addArray().add(first.get(key)).add(count));
        return frequencies;
    }

    private static ObjectNode dict(ResourceRequest request) {
        ObjectNode shape = JSON.createObjectNode();
        new TreeMap<>(request.getResourcesBundleMap()).forEach(shape::put);
        return shape;
    }
}
