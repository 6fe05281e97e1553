package dev.rayscale.sim;

import dev.rayscale.events.Resources;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * One raylet process: a Ray node with a node id drawn at random when it starts (so a raylet restarted
 * in the same pod is a new node, fact A4.20), its resources, the work it runs, and the state it reports
 * to the GCS. Guarded by {@link RaySim}'s lock.
 */
final class Raylet {

    /** One piece of work holding resources here until it ends; {@code selector} the labels it asked its node for. */
    record Work(Resources shape, double endSeconds, String gang, Map<String, String> selector) {
    }

    final String nodeId;
    /** What the node reports as its instance: the pod's name, or empty without KubeRay's RAY_CLOUD_INSTANCE_ID. */
    final String instanceId;
    final String pod;
    /** What the node reports as its type: the group's name, or empty without KubeRay's RAY_NODE_TYPE_NAME. */
    final String typeName;
    final String type;
    final Resources total;
    final Map<String, String> labels;
    Resources available;
    final List<Work> running = new ArrayList<>();
    /** Placement groups with bundles here: the GCS reports a {@code _PG_<id>} dynamic label for each (A5.22). */
    final Set<String> placementGroups = new LinkedHashSet<>();
    /** When the node last became idle (fact A4.17: the most recent time nothing was busy). */
    double idleSince;
    /** Accepted a drain: takes no new work, exits once idle (A3.14). */
    boolean draining;
    /**
     * What the GCS's last pull of this raylet's load got (A3.16): the autoscaler's view of the node is that, not the
     * raylet as it is now. Null until the first pull: the GCS then reads the node as it registered (available = total,
     * not idle: RUNNING).
     */
    Report report;
    /** The process is gone without unregistering: the GCS still thinks it alive until its health checks fail (A4.19). */
    boolean unreachable;
    /** When the GCS will mark an unreachable node DEAD. */
    double deadAt;

    /**
     * One {@code GetResourceLoad} reply as the GCS keeps it ({@code GcsAutoscalerStateManager::UpdateResourceLoadAndUsage}
     * replaces the node's {@code ResourcesData} whole).
     *
     * @param idleMs the node's idle duration when pulled, 0 if busy, at least 1 ms if idle (A4.17)
     * @param at when the GCS got it: it adds the time since to the idle duration it reports (A4.17)
     */
    record Report(Resources available, long idleMs, boolean draining, double at) {
    }

    Raylet(String nodeId, String instanceId, String pod, String typeName, String type, Resources total, Map<String, String> labels,
            double now) {
        this.nodeId = nodeId;
        this.instanceId = instanceId;
        this.pod = pod;
        this.typeName = typeName;
        this.type = type;
        this.total = total;
        this.labels = new TreeMap<>(labels);
        this.available = total;
        this.idleSince = now;
    }

    boolean idle() {
        return running.isEmpty();
    }

    /** What a pull of the raylet's load gets now. */
    Report reportAt(double now) {
        return new Report(available, idle() ? Math.max(1, (long) ((now - idleSince) * 1000)) : 0, draining, now);
    }

    /** Can take new work: alive, reachable, not draining. */
    boolean schedulable() {
        return !draining && !unreachable;
    }

    /** Whether this node carries every label of {@code selector} with its value: where work that selects them may go. */
    boolean carries(Map<String, String> selector) {
        return selector.entrySet().stream().allMatch(label -> label.getValue().equals(labels.get(label.getKey())));
    }

    void start(Resources shape, double end, String gang, Map<String, String> selector) {
        available = available.minus(shape);
        running.add(new Work(shape, end, gang, selector));
        if (gang != null) {
            placementGroups.add(gang);
        }
    }

    /** Ends the work due by {@code now}; returns what ended. */
    List<Work> finish(double now) {
        List<Work> ended = new ArrayList<>();
        running.removeIf(work -> {
            if (work.endSeconds() <= now) {
                ended.add(work);
                available = available.plus(work.shape());
                return true;
            }
            return false;
        });
        if (!ended.isEmpty()) {
            placementGroups.clear();
            running.stream().filter(work -> work.gang() != null).forEach(work -> placementGroups.add(work.gang()));
            if (running.isEmpty()) {
                idleSince = now;
            }
        }
        return ended;
    }

    /**
     * Fact A4.18: one {@code Resource: <name> currently in use.} per resource in use, and
     * {@code Busy workers on node.} while work runs.
     */
    List<String> activity() {
        List<String> activity = new ArrayList<>();
        for (String name : total.names()) {
            if (available.get(name).compareTo(total.get(name)) < 0) {
                activity.add("Resource: " + name + " currently in use.");
            }
        }
        if (!running.isEmpty()) {
            activity.add("Busy workers on node.");
        }
        return activity;
    }
}
