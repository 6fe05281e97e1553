package dev.rayscale.cli;

import dev.rayscale.audit.PolicyOverrides;
import dev.rayscale.sim.Workload;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * {@code demo --set KEY=VALUE}: the closed loop under a changed policy, named as {@code what-if} names it, so
 * that a demo run and the what-if of its recording can be compared. The cluster's own policy goes into the
 * RayCluster the demo creates; the planner's defaults become the planner's settings.
 */
final class DemoSettings {

    static final String KNOWN = "upscalingMode, idleTimeoutSeconds, group.NAME.minReplicas, group.NAME.maxReplicas, "
            + "planner.decisionTtlMillis, planner.maxPendingLaunches, planner.pendingPodPatienceMillis, planner.packing";

    /** The workload as changed, and the planner's JVM options. */
    record Applied(Workload workload, List<String> plannerOptions) {
    }

    private DemoSettings() {
    }

    static Applied apply(Workload workload, List<String> assignments) {
        Workload.Cluster cluster = workload.cluster();
        List<String> planner = new ArrayList<>();
        for (String assignment : assignments) {
            PolicyOverrides.Assignment parsed = PolicyOverrides.Assignment.parse(assignment);
            String key = parsed.key();
            String value = parsed.value();
            String[] parts = key.split("\\.");
            if (key.equals("upscalingMode")) {
                cluster = cluster.withUpscalingMode(kubeRayMode(value));
            } else if (key.equals("idleTimeoutSeconds")) {
                cluster = cluster.withIdleTimeoutSeconds(number(key, value));
            } else if (parts.length == 3 && parts[0].equals("group") && (parts[2].equals("minReplicas") || parts[2].equals("maxReplicas"))) {
                cluster = cluster.withGroups(groups(cluster.groups(), parts[1], parts[2].equals("minReplicas"), number(key, value)));
            } else if (parts.length == 2 && parts[0].equals("planner")) {
                planner.add(plannerOption(parts[1], key, value));
            } else {
                throw new IllegalArgumentException("'" + key + "' cannot be set on a demo run; these can: " + KNOWN
                        + " (./rayscale what-if takes every policy field)");
            }
        }
        return new Applied(workload.withCluster(cluster), planner);
    }

    private static List<Workload.Group> groups(List<Workload.Group> groups, String name, boolean min, int value) {
        if (!name.equals("*") && groups.stream().noneMatch(group -> group.name().equals(name))) {
            throw new IllegalArgumentException("the workload has no group " + name + "; its groups: "
                    + groups.stream().map(Workload.Group::name).toList());
        }
        return groups.stream().map(group -> !name.equals("*") && !group.name().equals(name) ? group
                : new Workload.Group(group.name(), group.resources(), min ? value : group.min(), min ? group.max() : value, group.hosts(),
                        group.replicas(), group.labels())).toList();
    }

    private static String plannerOption(String field, String key, String value) {
        return switch (field) {
            case "decisionTtlMillis" -> "-Drayscale.planner.decision-ttl=" + number(key, value) + "ms";
            case "maxPendingLaunches" -> "-Drayscale.planner.max-pending-launches=" + number(key, value);
            case "pendingPodPatienceMillis" -> "-Drayscale.planner.pending-pod-patience=" + number(key, value) + "ms";
            case "packing" -> "-Drayscale.planner.packing=" + value.toLowerCase(Locale.ROOT);
            default -> throw new IllegalArgumentException("'" + key + "' is not a planner setting; these are: " + KNOWN);
        };
    }

    /** KubeRay spells the modes Default, Aggressive, Conservative. */
    private static String kubeRayMode(String value) {
        String mode = value.substring(0, 1).toUpperCase(Locale.ROOT) + value.substring(1).toLowerCase(Locale.ROOT);
        if (!List.of("Default", "Aggressive", "Conservative").contains(mode)) {
            throw new IllegalArgumentException("upscalingMode '" + value + "' is not Default, Aggressive or Conservative");
        }
        return mode;
    }

    private static int number(String key, String value) {
        try {
            return Integer.parseInt(value);
        } catch (NumberFormatException notANumber) {
            throw new IllegalArgumentException(key + " '" + value + "' is not a whole number");
        }
    }
}
