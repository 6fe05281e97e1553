package dev.rayscale.sim;

import dev.rayscale.events.PlacementStrategy;
import dev.rayscale.events.Resources;
import dev.rayscale.gcs.proto.ClusterResourceState;
import dev.rayscale.gcs.proto.DrainNodeReply;
import dev.rayscale.gcs.proto.DrainNodeRequest;
import dev.rayscale.gcs.proto.NodeStatus;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What Ray does in the simulated cluster: every running pod is a Ray node (its instance id is the pod
 * name) with its group's resources; submitted work is scheduled first-fit onto nodes that are not
 * draining, placement groups all or nothing; what cannot be placed is the pending demand the GCS
 * reports. Idle time advances on the simulated clock. A drain (IDLE_TERMINATION) is accepted only by
 * an idle node. Thread-safe: one lock around everything.
 */
public final class RaySim {

    /** One piece of work holding resources on a node until it ends. */
    private record Running(Resources shape, double endSeconds, String gang) {
    }

    private static final class Node {
        final String pod;
        final String group;
        final Resources total;
        Resources available;
        final List<Running> running = new ArrayList<>();
        double idleSince;
        boolean draining;

        Node(String pod, String group, Resources total, double now) {
            this.pod = pod;
            this.group = group;
            this.total = total;
            this.available = total;
            this.idleSince = now;
        }
    }

    private static final class Batch {
        final Resources shape;
        final double seconds;
        long remaining;

        Batch(Resources shape, long count, double seconds) {
            this.shape = shape;
            this.remaining = count;
            this.seconds = seconds;
        }
    }

    private record Gang(String id, PlacementStrategy strategy, List<Resources> bundles, double seconds) {
    }

    private final Map<String, Node> nodes = new LinkedHashMap<>();
    private final List<Batch> pending = new ArrayList<>();
    private final List<Gang> pendingGangs = new ArrayList<>();
    private long version = 1;
    private long completed;
    private long busyRemovals;

    public synchronized void register(String pod, String group, Resources total, double now) {
        nodes.put(pod, new Node(pod, group, total, now));
        version++;
    }

    /** The pod is gone. If its node was running work, that is counted and the work goes back to pending (Ray retries it). */
    public synchronized void remove(String pod, double now) {
        Node node = nodes.remove(pod);
        if (node == null) {
            return;
        }
        if (!node.running.isEmpty()) {
            busyRemovals++;
            for (Running work : node.running) {
                if (work.gang == null) {
                    pending.add(new Batch(work.shape, 1, Math.max(1, work.endSeconds - now)));
                }
            }
        }
        version++;
    }

    public synchronized void submitTasks(Resources shape, long count, double seconds) {
        pending.add(new Batch(shape, count, seconds));
        version++;
    }

    public synchronized void submitGang(String id, PlacementStrategy strategy, List<Resources> bundles, double seconds) {
        pendingGangs.add(new Gang(id, strategy, bundles, seconds));
        version++;
    }

    /** Ends finished work and schedules what fits: placement groups first, then tasks in submission order. */
    public synchronized void tick(double now) {
        for (Node node : nodes.values()) {
            Iterator<Running> works = node.running.iterator();
            while (works.hasNext()) {
                Running work = works.next();
                if (work.endSeconds <= now) {
                    works.remove();
                    node.available = node.available.plus(work.shape);
                    completed += work.gang == null ? 1 : 0;
                    version++;
                    if (node.running.isEmpty()) {
                        node.idleSince = now;
                    }
                }
            }
        }
        pendingGangs.removeIf(gang -> placeGang(gang, now));
        for (Batch batch : pending) {
            for (Node node : nodes.values()) {
                while (batch.remaining > 0 && !node.draining && batch.shape.fitsIn(node.available)) {
                    start(node, batch.shape, now + batch.seconds, null);
                    batch.remaining--;
                }
            }
        }
        pending.removeIf(batch -> batch.remaining == 0);
    }

    private boolean placeGang(Gang gang, double now) {
        List<Node> chosen = new ArrayList<>();
        Map<Node, Resources> left = new LinkedHashMap<>();
        nodes.values().stream().filter(node -> !node.draining).forEach(node -> left.put(node, node.available));
        List<Resources> bundles = gang.strategy == PlacementStrategy.STRICT_PACK
                ? List.of(gang.bundles.stream().reduce(Resources.NONE, Resources::plus)) : gang.bundles;
        for (Resources bundle : bundles) {
            Node target = null;
            for (Map.Entry<Node, Resources> candidate : left.entrySet()) {
                boolean distinct = gang.strategy != PlacementStrategy.STRICT_SPREAD || !chosen.contains(candidate.getKey());
                if (distinct && bundle.fitsIn(candidate.getValue())) {
                    target = candidate.getKey();
                    break;
                }
            }
            if (target == null) {
                return false;
            }
            left.put(target, left.get(target).minus(bundle));
            chosen.add(target);
        }
        for (int i = 0; i < bundles.size(); i++) {
            start(chosen.get(i), bundles.get(i), now + gang.seconds, gang.id);
        }
        return true;
    }

    private void start(Node node, Resources shape, double end, String gang) {
        node.available = node.available.minus(shape);
        node.running.add(new Running(shape, end, gang));
        version++;
    }

    /** A drain with reason IDLE_TERMINATION: only an idle node accepts; it then takes no new work. */
    public synchronized DrainNodeReply drain(DrainNodeRequest request) {
        String pod = new String(request.getNodeId().toByteArray(), StandardCharsets.UTF_8);
        Node node = nodes.get(pod);
        if (node == null) {
            return DrainNodeReply.newBuilder().setIsAccepted(true).build();
        }
        if (!node.running.isEmpty()) {
            return DrainNodeReply.newBuilder().setIsAccepted(false)
                    .setRejectionReasonMessage("node " + pod + " is running " + node.running.size() + " task(s)").build();
        }
        node.draining = true;
        version++;
        return DrainNodeReply.newBuilder().setIsAccepted(true).build();
    }

    /** The GCS's view, in the GCS's encoding. */
    public synchronized ClusterResourceState state(double now) {
        GcsStates state = GcsStates.state(version);
        for (Node node : nodes.values()) {
            NodeStatus status = node.draining ? NodeStatus.DRAINING : node.running.isEmpty() ? NodeStatus.IDLE : NodeStatus.RUNNING;
            long idleMs = node.running.isEmpty() ? (long) ((now - node.idleSince) * 1000) : 0;
            state.node(node.pod, node.pod, node.group, status, doubles(node.total), doubles(node.available), Math.max(0, idleMs));
        }
        Map<Resources, Long> shapes = new LinkedHashMap<>();
        pending.forEach(batch -> shapes.merge(batch.shape, batch.remaining, Long::sum));
        shapes.forEach((shape, count) -> state.tasks(doubles(shape), count));
        for (Gang gang : pendingGangs) {
            state.gang(gang.id, gang.strategy.name(), gang.bundles.stream().map(RaySim::doubles).toList());
        }
        return state.build();
    }

    public synchronized Stats stats() {
        long queued = pending.stream().mapToLong(batch -> batch.remaining).sum();
        long running = nodes.values().stream().mapToLong(node -> node.running.stream().filter(w -> w.gang == null).count()).sum();
        long runningGangBundles = nodes.values().stream().mapToLong(node -> node.running.stream().filter(w -> w.gang != null).count()).sum();
        int workers = (int) nodes.values().stream().filter(node -> !node.group.equals(ClusterSimulator.HEAD_GROUP)).count();
        int busyWorkers = (int) nodes.values().stream()
                .filter(node -> !node.group.equals(ClusterSimulator.HEAD_GROUP) && !node.running.isEmpty()).count();
        return new Stats(queued, pendingGangs.size(), running, runningGangBundles, completed, workers, busyWorkers, busyRemovals);
    }

    /** What the simulated Ray cluster is doing. */
    public record Stats(long pendingTasks, int pendingGangs, long runningTasks, long runningGangBundles, long completedTasks,
            int registeredWorkers, int busyWorkers, long busyRemovals) {

        public boolean quiet() {
            return pendingTasks == 0 && pendingGangs == 0 && runningTasks == 0 && runningGangBundles == 0;
        }
    }

    static Map<String, Double> doubles(Resources resources) {
        Map<String, Double> amounts = new LinkedHashMap<>();
        resources.asMap().forEach((name, amount) -> amounts.put(name, amount.toBigDecimal().doubleValue()));
        return amounts;
    }

}
