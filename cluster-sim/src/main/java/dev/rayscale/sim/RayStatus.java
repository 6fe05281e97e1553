package dev.rayscale.sim;

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
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The text {@code ray status} prints (autoscaler v2), from what the GCS's {@code GetClusterStatus}
 * returns: a fresh cluster resource state and the autoscaling state the autoscaler last reported
 * (fact A2.9; layout as in {@code python/ray/autoscaler/v2/utils.py} and its formatter test). IDLE
 * nodes are "Idle", RUNNING and DRAINING "Active", DEAD ones "Recent failures" as NodeTerminated;
 * pending launches count request entries per type; failed launches show as LaunchFailed; infeasible
 * requests are never shown; demands come from the GCS's own pending requests.
 */
public final class RayStatus {

    private static final String RULE = "-".repeat(56);
    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss").withZone(ZoneOffset.UTC);
    private static final DateTimeFormatter CLOCK = DateTimeFormatter.ofPattern("HH:mm:ss").withZone(ZoneOffset.UTC);

    private RayStatus() {
    }

    public static String render(ClusterResourceState state, AutoscalingState report, Instant now) {
        AutoscalingState reported = report == null ? AutoscalingState.getDefaultInstance() : report;
        StringBuilder text = new StringBuilder("======== Autoscaler status: ").append(STAMP.format(now)).append(" ========\n");
        text.append("Node status\n").append(RULE).append('\n');
        Map<String, Integer> active = new TreeMap<>();
        Map<String, Integer> idle = new TreeMap<>();
        List<String> failures = new ArrayList<>();
        for (NodeState node : state.getNodeStatesList()) {
            switch (node.getStatus()) {
                case IDLE -> idle.merge(node.getRayNodeTypeName(), 1, Integer::sum);
                case DEAD -> failures.add(" " + node.getRayNodeTypeName() + ": NodeTerminated (instance_id: " + node.getInstanceId() + ")");
                default -> active.merge(node.getRayNodeTypeName(), 1, Integer::sum);
            }
        }
        text.append("Active:\n").append(counts(active, " (no active nodes)"));
        text.append("Idle:\n").append(counts(idle, " (no idle nodes)"));
        text.append("Pending:\n");
        Map<String, Integer> launching = new TreeMap<>();
        for (PendingInstanceRequest request : reported.getPendingInstanceRequestsList()) {
            launching.merge(request.getRayNodeTypeName(), 1, Integer::sum);
        }
        List<String> pending = new ArrayList<>();
        launching.forEach((type, entries) -> pending.add(" " + type + ", " + entries + " launching"));
        for (PendingInstance instance : reported.getPendingInstancesList()) {
            pending.add(" " + instance.getInstanceId() + ": " + instance.getRayNodeTypeName() + ", " + instance.getDetails().toLowerCase(Locale.ROOT));
        }
        lines(text, pending, " (no pending nodes)");
        text.append("Recent failures:\n");
        List<String> recent = new ArrayList<>();
        for (FailedInstanceRequest failed : reported.getFailedInstanceRequestsList()) {
            recent.add(" " + failed.getRayNodeTypeName() + ": LaunchFailed (latest_attempt: "
                    + CLOCK.format(Instant.ofEpochMilli(failed.getFailedTs())) + ")");
        }
        recent.addAll(failures);
        lines(text, recent, " (no failures)");
        text.append('\n').append("Resources\n").append(RULE).append('\n').append("Total Usage:\n");
        lines(text, usage(state), " (no resources)");
        text.append('\n').append("Total Demands:\n");
        lines(text, demands(state), " (no resource demands)");
        return text.toString();
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
        List<String> lines = new ArrayList<>();
        totals.forEach((name, usage) -> lines.add(" " + (name.contains("memory") ? bytes(usage[0]) + "/" + bytes(usage[1])
                : number(usage[0]) + "/" + number(usage[1])) + " " + name));
        return lines;
    }

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
            String strategy = gang.getDetails().contains(":") ? gang.getDetails().substring(gang.getDetails().indexOf(':') + 1).split("\\|")[0] : "PACK";
            Map<String, Integer> bundles = new LinkedHashMap<>();
            gang.getRequestsList().forEach(request -> bundles.merge(bundle(request), 1, Integer::sum));
            bundles.forEach((bundle, count) -> gangs.merge(bundle + " * " + count + " (" + strategy + ")", 1, Integer::sum));
        }
        gangs.forEach((line, count) -> lines.add(" " + line + ": " + count + "+ pending placement groups"));
        for (ClusterResourceConstraint constraint : state.getClusterResourceConstraintsList()) {
            for (ResourceRequestByCount request : constraint.getResourceRequestsList()) {
                lines.add(" " + bundle(request.getRequest()) + ": " + request.getCount() + "+ from request_resources()");
            }
        }
        return lines;
    }

    /** A bundle as Python prints the dict Ray formats: {@code {'CPU': 1.0, 'memory': 1073741824.0}}. */
    private static String bundle(ResourceRequest request) {
        List<String> entries = new ArrayList<>();
        new TreeMap<>(request.getResourcesBundleMap()).forEach((name, amount) -> entries.add("'" + name + "': " + python(amount)));
        return "{" + String.join(", ", entries) + "}";
    }

    private static String python(double amount) {
        return amount == Math.rint(amount) && Math.abs(amount) < 1e16 ? String.format(Locale.ROOT, "%.1f", amount) : Double.toString(amount);
    }

    private static String number(double amount) {
        return String.format(Locale.ROOT, "%.1f", amount);
    }

    private static String bytes(double amount) {
        String[] units = {"B", "KiB", "MiB", "GiB", "TiB"};
        int unit = 0;
        double value = amount;
        while (value >= 1024 && unit < units.length - 1) {
            value /= 1024;
            unit++;
        }
        return String.format(Locale.ROOT, "%.2f%s", value, units[unit]);
    }
}
