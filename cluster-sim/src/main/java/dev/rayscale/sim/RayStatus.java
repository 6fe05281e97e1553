package dev.rayscale.sim;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.rayscale.gcs.proto.AutoscalingState;
import dev.rayscale.gcs.proto.ClusterResourceConstraint;
import dev.rayscale.gcs.proto.ClusterResourceState;
import dev.rayscale.gcs.proto.FailedInstanceRequest;
import dev.rayscale.gcs.proto.GangResourceRequest;
import dev.rayscale.gcs.proto.NodeState;
import dev.rayscale.gcs.proto.NodeStatus;
import dev.rayscale.gcs.proto.PendingInstance;
import dev.rayscale.gcs.proto.PendingInstanceRequest;
import dev.rayscale.gcs.proto.ResourceRequest;
import dev.rayscale.gcs.proto.ResourceRequestByCount;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The text {@code ray status} prints ({@code commands.debug_status}), on either client path, in the layout of current Ray
 * (titles {@code Total Usage:}, {@code From request_resources:}, {@code Pending Demands:}, ray-project/ray PR 55787):
 * <ul>
 *   <li><b>v2</b> ({@code is_autoscaler_v2()}, fact D47): {@code GetClusterStatus} — a fresh resource state and the
 *       autoscaling state last reported — formatted by {@code ClusterStatusFormatter} (fact A2.9): nodes by their
 *       {@code ray_node_type_name} as Active (RUNNING, DRAINING) or Idle; pending launches as {@code <type>, N launching}
 *       with N the number of request entries; LaunchFailed at the failed request's {@code start_ts}, turned into a time by
 *       Python's {@code datetime.fromtimestamp}, which fails on a millisecond value (fact D50); infeasible requests never
 *       shown; demands from the GCS's own pending requests; constraints from the GCS's.</li>
 *   <li><b>v1</b>: the JSON the head's read-only v1 monitor last wrote to the KV ({@link ReadOnlyMonitor}), formatted by
 *       {@code format_info_string}: nodes as {@code node_<hex id>}, no Idle section, nothing pending, no failures,
 *       {@code request_resources} bundles as the KV holds them. Without that JSON: "No cluster status...".</li>
 * </ul>
 * Either path appends the v1 monitor's error from the KV when there is one. Times are formatted in UTC here.
 */
public final class RayStatus {

    /** What {@code ray status} prints on the v1 path before the monitor wrote a status. */
    public static final String NO_STATUS = "No cluster status. It may take a few seconds for the Ray internal services to start up.";

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final DateTimeFormatter SECONDS = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss");
    private static final DateTimeFormatter MICROSECONDS = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSSSSS");
    private static final String[][] MEMORY_UNITS = {{"TiB", "1099511627776"}, {"GiB", "1073741824"}, {"MiB", "1048576"}, {"KiB", "1024"}};

    /** A failure of {@code ray status} itself: Python raised, and the command printed a traceback ending with this. */
    public static final class Failed extends RuntimeException {
        Failed(String pythonError) {
            super(pythonError);
        }
    }

    private RayStatus() {
    }

    /** The v2 path: {@code GetClusterStatus} answered {@code state} and {@code report}; the client asked at {@code asked}. */
    public static String v2(ClusterResourceState state, AutoscalingState report, Instant asked, String error) {
        AutoscalingState reported = report == null ? AutoscalingState.getDefaultInstance() : report;
        Map<String, Integer> active = new LinkedHashMap<>();
        Map<String, Integer> idle = new LinkedHashMap<>();
        List<String> dead = new ArrayList<>();
        for (NodeState node : state.getNodeStatesList()) {
            String type = node.getRayNodeTypeName().isEmpty() ? "node_" + HexFormat.of().formatHex(node.getNodeId().toByteArray())
                    : node.getRayNodeTypeName();
            switch (node.getStatus()) {
                case IDLE -> idle.merge(type, 1, Integer::sum);
                case DEAD -> dead.add(" " + type + ": NodeTerminated (instance_id: " + node.getInstanceId() + ")");
                default -> active.merge(type, 1, Integer::sum);
            }
        }
        Map<String, Integer> launching = new LinkedHashMap<>();
        for (PendingInstanceRequest request : reported.getPendingInstanceRequestsList()) {
            launching.merge(request.getRayNodeTypeName(), 1, Integer::sum);
        }
        List<String> pending = new ArrayList<>();
        launching.forEach((type, entries) -> pending.add(" " + type + ", " + entries + " launching"));
        for (PendingInstance instance : reported.getPendingInstancesList()) {
            pending.add(" " + instance.getInstanceId() + ": " + instance.getRayNodeTypeName() + ", " + instance.getDetails().toLowerCase(Locale.ROOT));
        }
        List<String> failures = new ArrayList<>();
        reported.getFailedInstanceRequestsList().stream().sorted(Comparator.comparingLong(FailedInstanceRequest::getStartTs).reversed())
                .forEach(failed -> failures.add(" " + failed.getRayNodeTypeName() + ": LaunchFailed (latest_attempt: "
                        + clock(fromTimestamp(failed.getStartTs())) + ")"));
        failures.addAll(dead);
        List<String> constraints = new ArrayList<>();
        for (ClusterResourceConstraint constraint : state.getClusterResourceConstraintsList()) {
            for (ResourceRequestByCount request : constraint.getResourceRequestsList()) {
                constraints.add(" " + bundle(request.getRequest()) + ": " + request.getCount() + " from request_resources()");
            }
        }
        StringBuilder text = new StringBuilder();
        String separator = header(text, fromTimestamp(asked.getEpochSecond(), asked.getNano() / 1000));
        text.append("Node status\n").append(separator).append('\n');
        text.append("Active:\n").append(counts(active, " (no active nodes)"));
        text.append("Idle:\n").append(counts(idle, " (no idle nodes)"));
        text.append("Pending:\n");
        lines(text, pending, " (no pending nodes)");
        text.append("Recent failures:\n");
        lines(text, failures, " (no failures)");
        resources(text, separator, usage(state), constraints, demands(state));
        return withError(text.toString().strip(), error);
    }

    /** The v1 path: the JSON the monitor last wrote to {@code __autoscaling_status}, or null if it wrote none. */
    public static String v1(String monitorStatus, String error) {
        JsonNode status = monitorStatus == null ? null : parse(monitorStatus);
        if (status == null || !status.hasNonNull("load_metrics_report") || !status.hasNonNull("autoscaler_report") || !status.hasNonNull("time")) {
            return withError(NO_STATUS, error);
        }
        JsonNode load = status.get("load_metrics_report");
        JsonNode autoscaler = status.get("autoscaler_report");
        double time = status.get("time").asDouble();
        long seconds = (long) Math.floor(time);
        StringBuilder text = new StringBuilder();
        String separator = header(text, fromTimestamp(seconds, (int) Math.round((time - seconds) * 1e6)));
        text.append("Node status\n").append(separator).append('\n');
        Map<String, Integer> active = new LinkedHashMap<>();
        autoscaler.path("active_nodes").fields().forEachRemaining(entry -> active.put(entry.getKey(), entry.getValue().asInt()));
        text.append("Active:\n").append(counts(active, " (no active nodes)"));
        text.append("Pending:\n (no pending nodes)\n");
        text.append("Recent failures:\n (no failures)\n");
        List<String> usage = new ArrayList<>();
        Map<String, double[]> amounts = new TreeMap<>();
        load.path("usage").fields().forEachRemaining(entry -> amounts.put(entry.getKey(),
                new double[] {entry.getValue().get(0).asDouble(), entry.getValue().get(1).asDouble()}));
        amounts.forEach((name, pair) -> usage.add(usageLine(name, pair[0], pair[1])));
        List<String> constraints = new ArrayList<>();
        for (JsonNode entry : load.path("request_demand")) {
            constraints.add(" " + pythonDict(entry.get(0)) + ": " + entry.get(1).asLong() + " from request_resources()");
        }
        List<String> demands = new ArrayList<>();
        for (JsonNode entry : load.path("resource_demand")) {
            demands.add(" " + pythonDict(entry.get(0)) + ": " + entry.get(1).asLong() + "+ pending tasks/actors");
        }
        for (JsonNode entry : load.path("pg_demand")) {
            List<String> bundles = new ArrayList<>();
            for (JsonNode bundle : entry.get(0).path("bundles")) {
                bundles.add(pythonDict(bundle.get(0)) + " * " + bundle.get(1).asLong());
            }
            demands.add(" " + String.join(", ", bundles) + " (" + entry.get(0).path("strategy").asText() + "): " + entry.get(1).asLong()
                    + "+ pending placement groups");
        }
        resources(text, separator, usage, constraints, demands);
        return withError(text.toString().strip(), error);
    }

    /** {@code "=" * 8 + f" Autoscaler status: {time} " + "=" * 8}; returns the separator, {@code "-" * len(header)}. */
    private static String header(StringBuilder text, LocalDateTime time) {
        String header = "=".repeat(8) + " Autoscaler status: " + (time.getNano() == 0 ? SECONDS : MICROSECONDS).format(time) + " " + "=".repeat(8);
        text.append(header).append('\n');
        return "-".repeat(header.length());
    }

    private static void resources(StringBuilder text, String separator, List<String> usage, List<String> constraints, List<String> demands) {
        text.append('\n').append("Resources\n").append(separator).append('\n').append("Total Usage:\n");
        usage.forEach(line -> text.append(line).append('\n'));
        text.append('\n').append("From request_resources:\n");
        lines(text, constraints, " (none)");
        text.append("Pending Demands:\n");
        lines(text, demands, " (no resource demands)");
    }

    private static String withError(String status, String error) {
        return error == null ? status : status + "\n" + error;
    }

    /**
     * Python's {@code datetime.fromtimestamp}, in UTC: a year past 9999 raises, as it does for a millisecond timestamp read
     * as seconds ({@code ValueError: year 55840 is out of range}).
     */
    static LocalDateTime fromTimestamp(long seconds) {
        return fromTimestamp(seconds, 0);
    }

    private static LocalDateTime fromTimestamp(long seconds, int micros) {
        LocalDateTime time = LocalDateTime.ofEpochSecond(seconds, micros * 1000, ZoneOffset.UTC);
        if (time.getYear() < 1 || time.getYear() > 9999) {
            throw new Failed("ValueError: year " + time.getYear() + " is out of range");
        }
        return time;
    }

    private static String clock(LocalDateTime time) {
        return String.format(Locale.ROOT, "%02d:%02d:%02d", time.getHour(), time.getMinute(), time.getSecond());
    }

    private static String counts(Map<String, Integer> byType, String none) {
        StringBuilder text = new StringBuilder();
        byType.forEach((type, count) -> text.append(' ').append(count).append(' ').append(type).append('\n'));
        return text.length() == 0 ? none + "\n" : text.toString();
    }

    private static void lines(StringBuilder text, List<String> lines, String none) {
        if (lines.isEmpty()) {
            text.append(none).append('\n');
        }
        lines.forEach(line -> text.append(line).append('\n'));
    }

    private static List<String> usage(ClusterResourceState state) {
        List<String> lines = new ArrayList<>();
        usedAndTotal(state).forEach((name, usage) -> lines.add(usageLine(name, usage[0], usage[1])));
        return lines;
    }

    /** Total minus available, and total, over the nodes not DEAD, by resource name in ASCII order ({@code parse_usage}). */
    static Map<String, double[]> usedAndTotal(ClusterResourceState state) {
        Map<String, double[]> totals = new TreeMap<>();
        for (NodeState node : state.getNodeStatesList()) {
            if (node.getStatus() == NodeStatus.DEAD) {
                continue;
            }
            node.getTotalResourcesMap().forEach((name, total) -> {
                double[] usage = totals.computeIfAbsent(name, key -> new double[2]);
                usage[0] += total - node.getAvailableResourcesOrDefault(name, 0.0);
                usage[1] += total;
            });
        }
        return totals;
    }

    /** A placement group's strategy, from the GCS's details {@code <id>:<STRATEGY>|<state>} (fact A5.22). */
    static String strategy(GangResourceRequest gang) {
        String details = gang.getDetails();
        return details.contains(":") ? details.substring(details.indexOf(':') + 1).split("\\|")[0] : "PACK";
    }

    private static String usageLine(String name, double used, double total) {
        boolean memory = name.equals("memory") || name.equals("object_store_memory");
        return " " + (memory ? memory(used) + "/" + memory(total) : python(used) + "/" + python(total)) + " " + name;
    }

    /** Tasks and actors by shape, then placement groups by bundles and strategy ({@code _demand_report}). */
    private static List<String> demands(ClusterResourceState state) {
        List<String> lines = new ArrayList<>();
        for (ResourceRequestByCount request : state.getPendingResourceRequestsList()) {
            lines.add(" " + bundle(request.getRequest()) + ": " + request.getCount() + "+ pending tasks/actors");
        }
        Map<String, Integer> gangs = new LinkedHashMap<>();
        for (GangResourceRequest gang : state.getPendingGangResourceRequestsList()) {
            if (gang.getRequestsCount() == 0) {
                continue;
            }
            String strategy = strategy(gang);
            Map<String, Integer> bundles = new LinkedHashMap<>();
            gang.getRequestsList().forEach(request -> bundles.merge(bundle(request), 1, Integer::sum));
            List<String> parts = new ArrayList<>();
            bundles.forEach((bundle, count) -> parts.add(bundle + " * " + count));
            gangs.merge(String.join(", ", parts) + " (" + strategy + ")", 1, Integer::sum);
        }
        gangs.forEach((line, count) -> lines.add(" " + line + ": " + count + "+ pending placement groups"));
        return lines;
    }

    /** A bundle as Python prints the dict Ray formats: {@code {'CPU': 1.0, 'memory': 1073741824.0}}, keys sorted. */
    private static String bundle(ResourceRequest request) {
        List<String> entries = new ArrayList<>();
        new TreeMap<>(request.getResourcesBundleMap()).forEach((name, amount) -> entries.add("'" + name + "': " + python(amount)));
        return "{" + String.join(", ", entries) + "}";
    }

    /** A dict as {@code json.loads} gave it: keys in the JSON's order, an integer printed as one. */
    private static String pythonDict(JsonNode object) {
        List<String> entries = new ArrayList<>();
        object.fields().forEachRemaining(entry -> entries.add("'" + entry.getKey() + "': "
                + (entry.getValue().isIntegralNumber() ? entry.getValue().asText() : python(entry.getValue().asDouble()))));
        return "{" + String.join(", ", entries) + "}";
    }

    /** Python's {@code repr} of a float: the shortest decimal that reads back, with a {@code .0} on whole numbers. */
    static String python(double amount) {
        if (amount != 0 && (Math.abs(amount) < 1e-4 || Math.abs(amount) >= 1e16)) {
            String java = Double.toString(amount);
            int e = java.indexOf('E');
            String mantissa = java.substring(0, e).replaceAll("\\.?0+$", "");
            int exponent = Integer.parseInt(java.substring(e + 1));
            return mantissa + "e" + (exponent < 0 ? "-" : "+") + String.format(Locale.ROOT, "%02d", Math.abs(exponent));
        }
        String plain = new BigDecimal(Double.toString(amount)).stripTrailingZeros().toPlainString();
        return plain.contains(".") ? plain : plain + ".0";
    }

    /** {@code format_memory}: the largest binary unit the amount reaches, two decimals; bytes as a whole number. */
    private static String memory(double bytes) {
        for (String[] unit : MEMORY_UNITS) {
            double size = Double.parseDouble(unit[1]);
            if (bytes >= size) {
                return String.format(Locale.ROOT, "%.2f%s", bytes / size, unit[0]);
            }
        }
        return (long) bytes + "B";
    }

    private static JsonNode parse(String json) {
        try {
            return JSON.readTree(json);
        } catch (JsonProcessingException unreadable) {
            throw new Failed("json.decoder.JSONDecodeError: " + unreadable.getOriginalMessage());
        }
    }
}
