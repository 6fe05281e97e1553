package dev.rayscale.actuator.core;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * What Rayscale last wrote to each worker group, kept on the RayCluster in an annotation written by the same patch:
 * {@code {"<group>": "<replicas>/<digest of workersToDelete>"}}. A later read that finds other values knows that someone
 * else wrote them (GitOps re-applying a manifest, a RayService rebuilding its cluster, a person with kubectl): the
 * KubeRay operator never writes these fields of a RayCluster (fact B6.26). Like {@link AppliedMark}, it survives restarts.
 */
public final class WrittenGroups {

    public static final String ANNOTATION = "rayscale.dev/last-applied-groups";
    private static final ObjectMapper JSON = new ObjectMapper();
    /** Enough to name what changed; a group with thousands of pods listed is not spelled out. */
    private static final int NAMES_SHOWN = 5;

    private WrittenGroups() {
    }

    /** The annotation's value once {@code plan} is written: its groups as planned, the others as read. */
    static String after(ActuationPlan plan) {
        ObjectNode written = JSON.createObjectNode();
        List<ObservedCluster.ObservedGroup> groups = plan.cluster().groups();
        for (int index = 0; index < groups.size(); index++) {
            ObservedCluster.ObservedGroup group = groups.get(index);
            written.put(group.name(), value(group.replicasOrZero(), group.workersToDelete()));
        }
        for (GroupPlan group : plan.groups()) {
            if (group.changes()) {
                written.put(group.name(), value(group.replicasAfter(), group.workersToDeleteAfter()));
            }
        }
        return written.toString();
    }

    /**
     * What differs between the groups as read and {@code annotation}, the values Rayscale last wrote: empty if they agree,
     * if Rayscale never wrote them, or if the annotation is not Rayscale's format (a cluster's owner can write anything
     * there; it then only loses the warning).
     */
    public static List<String> changedSince(String annotation, List<ObservedCluster.ObservedGroup> groups) {
        JsonNode written;
        try {
            written = annotation == null ? null : JSON.readTree(annotation);
        } catch (IOException unreadable) {
            return List.of();
        }
        if (written == null || !written.isObject()) {
            return List.of();
        }
        List<String> changed = new ArrayList<>();
        for (ObservedCluster.ObservedGroup group : groups) {
            JsonNode value = written.get(group.name());
            if (value == null || !value.isTextual()) {
                continue;
            }
            String[] parts = value.asText().split("/", 2);
            if (!parts[0].equals(String.valueOf(group.replicasOrZero()))) {
                changed.add(group.name() + " replicas " + parts[0] + " -> " + group.replicasOrZero());
            }
            if (!(parts.length == 2 ? parts[1] : "").equals(digest(group.workersToDelete()))) {
                List<String> names = group.workersToDelete();
                changed.add(group.name() + " workersToDelete now " + (names.size() <= NAMES_SHOWN ? names
                        : names.subList(0, NAMES_SHOWN) + " and " + (names.size() - NAMES_SHOWN) + " more"));
            }
        }
        return changed;
    }

    private static String value(int replicas, List<String> workersToDelete) {
        String digest = digest(workersToDelete);
        return digest.isEmpty() ? String.valueOf(replicas) : replicas + "/" + digest;
    }

    /** Empty for no names; else the list's hash (defined by {@link List#hashCode} over {@link String#hashCode}), in hex. */
    private static String digest(List<String> names) {
        return names.isEmpty() ? "" : Integer.toHexString(names.hashCode());
    }
}
