package dev.rayscale.audit;

import dev.rayscale.events.ActuationResult;
import dev.rayscale.events.ClusterSnapshot;
import dev.rayscale.events.GroupActuation;
import dev.rayscale.events.GroupTarget;
import dev.rayscale.events.NodeStatus;
import dev.rayscale.events.RayNode;
import dev.rayscale.events.ScaleDecision;
import dev.rayscale.events.TaskDemand;
import dev.rayscale.events.WorkerGroup;
import java.util.ArrayList;
import java.util.List;

/** One-line accounts of events, for people reading an audit. */
public final class Digest {

    private static final int SHAPES_SHOWN = 3;

    private Digest() {
    }

    /** What the snapshot showed: the Ray state (or that it was unknown), the demand and each group's size. */
    public static String of(ClusterSnapshot snapshot) {
        StringBuilder text = new StringBuilder();
        if (!snapshot.hasRayState()) {
            text.append("Ray state unknown (").append(snapshot.sources().gcs().status()).append(": ")
                    .append(snapshot.sources().gcs().error()).append(')');
        } else {
            List<RayNode> workers = snapshot.nodes().stream()
                    .filter(node -> !node.group().equals(snapshot.headGroup().name()) && node.status() != NodeStatus.DEAD).toList();
            long idle = workers.stream().filter(node -> node.status() == NodeStatus.IDLE).count();
            long tasks = waitingTasks(snapshot);
            text.append(workers.size()).append(" worker node(s), ").append(idle).append(" idle; ").append(tasks).append(" task(s) waiting");
            List<String> shapes = new ArrayList<>();
            snapshot.demand().tasks().stream().limit(SHAPES_SHOWN).forEach(task -> shapes.add(task.shape() + "x" + task.count()));
            if (snapshot.demand().tasks().size() > SHAPES_SHOWN) {
                shapes.add("...");
            }
            if (!shapes.isEmpty()) {
                text.append(' ').append(String.join(" ", shapes));
            }
            if (!snapshot.demand().gangs().isEmpty()) {
                text.append(", ").append(snapshot.demand().gangs().size()).append(" placement group(s)");
            }
            if (!snapshot.demand().constraints().isEmpty()) {
                text.append(", request_resources");
            }
            if (!snapshot.pendingPods().isEmpty()) {
                text.append(", ").append(snapshot.pendingPods().size()).append(" pod(s) without a node");
            }
        }
        text.append("; groups");
        for (WorkerGroup group : snapshot.workerGroups()) {
            text.append(' ').append(group.name()).append('=').append(group.replicas()).append(" [").append(group.minReplicas()).append("..")
                    .append(group.maxReplicas()).append(']');
        }
        return text.toString();
    }

    /** The tasks and actors waiting for resources, -1 when the Ray state is unknown. */
    public static long waitingTasks(ClusterSnapshot snapshot) {
        return snapshot.hasRayState() ? snapshot.demand().tasks().stream().mapToLong(TaskDemand::count).sum() : -1;
    }

    /** The changes a decision asks for, e.g. {@code small 0 -> 15, gpu 2 -> 1 (remove 1)}, or {@code no change}. */
    public static String targets(ScaleDecision decision) {
        StringBuilder text = new StringBuilder();
        for (GroupTarget group : decision.groups()) {
            if (group.targetReplicas() != group.currentReplicas() || !group.toDelete().isEmpty()) {
                text.append(text.length() == 0 ? "" : ", ").append(group.name()).append(' ').append(group.currentReplicas())
                        .append(" -> ").append(group.targetReplicas());
                if (!group.toDelete().isEmpty()) {
                    text.append(" (remove ").append(group.toDelete().size()).append(')');
                }
            }
        }
        return text.length() == 0 ? "no change" : text.toString();
    }

    /** What the actuator did: the outcome, what it patched and the drains. */
    public static String of(ActuationResult result) {
        StringBuilder text = new StringBuilder().append(result.outcome());
        if (result.dryRun()) {
            text.append(" (dry run)");
        }
        List<String> done = new ArrayList<>();
        int accepted = 0;
        int refused = 0;
        for (GroupActuation group : result.groups()) {
            if (group.replicasAfter() != group.replicasBefore() || !group.workersToDelete().isEmpty()) {
                done.add(group.name() + " replicas " + group.replicasBefore() + " -> " + group.replicasAfter()
                        + (group.workersToDelete().isEmpty() ? "" : ", workersToDelete +" + group.workersToDelete().size()));
            }
            accepted += group.workersToDelete().size();
            refused += group.drainRejected().size();
        }
        if (!done.isEmpty()) {
            text.append(": patched ").append(String.join("; ", done));
        }
        if (accepted + refused > 0) {
            text.append("; drains ").append(accepted).append(" accepted, ").append(refused).append(" refused");
        }
        if (result.resourceVersionAfter() != null) {
            // The actuator writes a scale-up on a cluster it wrote last without reading it first: no version before.
            text.append("; resourceVersion ").append(result.resourceVersionBefore() == null ? "(not read) "
                    : result.resourceVersionBefore() + " -> ").append(result.resourceVersionAfter());
        }
        return text.append(" (").append(result.reason()).append(')').toString();
    }
}
