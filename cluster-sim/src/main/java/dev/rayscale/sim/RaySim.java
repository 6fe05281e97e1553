package dev.rayscale.sim;

import com.google.protobuf.ByteString;
import dev.rayscale.events.PlacementStrategy;
import dev.rayscale.events.Resources;
import dev.rayscale.gcs.RayKv;
import dev.rayscale.gcs.proto.AffinityConstraint;
import dev.rayscale.gcs.proto.AntiAffinityConstraint;
import dev.rayscale.gcs.proto.AutoscalingState;
import dev.rayscale.gcs.proto.BundleSelector;
import dev.rayscale.gcs.proto.ClusterResourceConstraint;
import dev.rayscale.gcs.proto.ClusterResourceState;
import dev.rayscale.gcs.proto.DrainNodeReason;
import dev.rayscale.gcs.proto.DrainNodeReply;
import dev.rayscale.gcs.proto.DrainNodeRequest;
import dev.rayscale.gcs.proto.GangResourceRequest;
import dev.rayscale.gcs.proto.GetClusterStatusReply;
import dev.rayscale.gcs.proto.LabelSelector;
import dev.rayscale.gcs.proto.LabelSelectorConstraint;
import dev.rayscale.gcs.proto.LabelSelectorOperator;
import dev.rayscale.gcs.proto.NodeState;
import dev.rayscale.gcs.proto.NodeStatus;
import dev.rayscale.gcs.proto.PlacementConstraint;
import dev.rayscale.gcs.proto.ReportAutoscalingStateRequest;
import dev.rayscale.gcs.proto.ResourceRequest;
import dev.rayscale.gcs.proto.ResourceRequestByCount;
import io.grpc.Status;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.function.DoubleSupplier;
import java.util.function.LongConsumer;

/**
 * Ray in the simulated cluster, as Ray's source code behaves (facts A1 to A5 of the shared
 * ray-kuberay-behaviours.md, cited where modelled): the GCS process in the head pod, a raylet per
 * running worker container, and the work they run.
 *
 * <ul>
 *   <li><b>The GCS</b> counts a version that every read bumps (A1.2) and that starts at 0 in every GCS
 *       process (A1.3); a read whose {@code last_seen} is above it makes the process exit (A1.1), and the
 *       head's container restart brings a new process with a new session name and empty tables: no
 *       nodes, no report, no {@code request_resources} (A1.3, A5.23). Raylets of the old session cannot
 *       join the new one; they exit and come back in their pods as new nodes (A4.20).</li>
 *   <li><b>Drains</b> (A3): a negative deadline is an error (A3.10); an unknown or dead node is accepted
 *       (A3.11); an alive one is asked: IDLE_TERMINATION only if idle, PREEMPTION always (A3.13); an idle
 *       node that accepts exits at once and is DEAD, never DRAINING (A3.14); DRAINING is what a busy
 *       draining raylet reports, at the GCS's next load poll (A3.16).</li>
 *   <li><b>The load poll</b> (A3.16): once a second the GCS pulls every raylet's load and usage together, and its
 *       autoscaler state is what it last pulled: the tasks queued, and each alive node's status, idle time and
 *       available resources ({@code GcsAutoscalerStateManager::GetNodeStates}); a node not yet pulled reads as it
 *       registered, all available and RUNNING ({@code OnNodeAdd}); one that no longer answers keeps its last report.
 *       Only DEAD, the activity strings and placement groups come from elsewhere, as they happen.</li>
 *   <li><b>Node states</b> (A4): DEAD, then DRAINING, then IDLE, then RUNNING (A3.16); idle time since the
 *       last moment nothing ran, at least 1 ms, as pulled plus the time since (A4.17); Ray's activity strings (A4.18); a pod deleted
 *       gracefully unregisters its node at once, one that vanished is DEAD only after the health checks
 *       fail (A4.19); a DEAD node has only identity fields.</li>
 *   <li><b>Demand</b> (A5): pending tasks summed by shape, infeasible included (A5.21); one request per
 *       pending placement group with its unplaced bundles, {@code _PG_<id>} constraints for the strict
 *       strategies, details {@code <id>:<STRATEGY>|PENDING}, and {@code _PG_<id>} dynamic labels on the
 *       nodes holding its bundles (A5.22).</li>
 *   <li><b>Reports</b>: an older autoscaler state version than the one held is dropped (A2.5).</li>
 * </ul>
 *
 * Thread-safe: one lock around everything (the gRPC threads and the simulator's ticker share it).
 */
public final class RaySim implements GcsBackend {

    /** What Kubernetes learns from Ray: the ray container's main process ended. */
    public interface Containers {
        void rayProcessExited(String pod, boolean cleanly);
    }

    /** {@code health_check_failure_threshold x (health_check_period_ms + health_check_timeout_ms)}, the slow end of A4.19. */
    static final double HEALTH_CHECK_DEAD_AFTER_SECONDS = 5 * (3 + 10);
    /** {@code maximum_gcs_dead_node_cached_count} (A3.11). */
    static final int DEAD_NODE_CACHE = 1000;
    /** {@code gcs_pull_resource_loads_period_milliseconds} (A3.16). */
    static final double LOAD_POLL_SECONDS = 1;
    static final String IDLE_REJECTION = "The node to be idle terminated is no longer idle.";
    /** Ray's default node labels ({@code src/ray/common/constants.h}: kLabelKeyNodeID, kLabelKeyNodeGroup). */
    public static final String NODE_ID_LABEL = "ray.io/node-id";
    public static final String NODE_GROUP_LABEL = "ray.io/node-group";

    /** Tasks of one shape; {@code selector} the labels the node must carry (IN one value each), empty for any node. */
    private record Batch(Resources shape, double seconds, long[] remaining, Map<String, String> selector) {
    }

    /** The GCS aggregates queued work by shape and label selector (A5.21, C43). */
    private record Load(Resources shape, Map<String, String> selector) {
    }

    /** @param selectors each bundle's label selector, in the order of bundles (empty for any node) */
    private record Gang(String id, PlacementStrategy strategy, List<Resources> bundles, List<Map<String, String>> selectors, double seconds) {
    }

    private final DoubleSupplier clock;
    private final Containers containers;
    private final Random random;
    private final RayRelease release;
    /** KubeRay sets RAY_CLOUD_INSTANCE_ID and RAY_NODE_TYPE_NAME in the Ray containers (1.1 and later). */
    private final boolean podEnv;
    private final GcsKv kv = new GcsKv();
    private final ReadOnlyMonitor monitor;
    // The GCS process.
    private String headPod;
    private boolean gcsUp;
    private long version;
    private String sessionName = "";
    private int sessions;
    private long gcsExitsCausedByClients;
    private AutoscalingState held;
    private final List<ResourceRequestByCount> constraint = new ArrayList<>();
    private final LinkedHashMap<String, Raylet> dead = new LinkedHashMap<>();
    private double lastLoadPoll;
    /** The queued tasks by shape as the GCS's last pull of the raylets' loads found them (A3.16, A5.21). */
    private Map<Load, Long> pulledLoad = Map.of();
    /** Told, at the next pull, the state version read last before it: a read with a higher version sees what came before. */
    private final List<LongConsumer> awaitingPull = new ArrayList<>();
    // The raylets the GCS knows alive, by node id.
    private final Map<String, Raylet> alive = new LinkedHashMap<>();
    // The work.
    private final List<Batch> pending = new ArrayList<>();
    private final List<Gang> pendingGangs = new ArrayList<>();
    /** Every placement group submitted, so that one whose node went away can be scheduled again whole. */
    private final List<Gang> submitted = new ArrayList<>();
    private long completed;

    RaySim(DoubleSupplier clock, Containers containers, long seed, RayRelease release, boolean podEnv) {
        this.clock = clock;
        this.containers = containers;
        this.random = new Random(seed);
        this.release = release;
        this.podEnv = podEnv;
        this.monitor = new ReadOnlyMonitor(release);
    }

    // ---- Kubernetes side: processes starting and stopping in pods ----

    /** The head container started: a new GCS process, with a new session and empty tables (A1.3). */
    public synchronized void startHead(String pod, Resources total, Map<String, String> labels) {
        double now = clock.getAsDouble();
        List<Raylet> previous = new ArrayList<>(alive.values());
        alive.clear();
        dead.clear();
        constraint.clear();
        held = null;
        pulledLoad = Map.of();
        version = 0;
        sessions++;
        sessionName = String.format("session_sim_%d_%d", sessions, 1000 + random.nextInt(9000));
        gcsUp = true;
        headPod = pod;
        kv.start(release);
        monitor.start(now);
        for (Raylet raylet : previous) {
            // Raylets of an earlier GCS process cannot rejoin; their containers end and start anew (new node ids, A4.20).
            requeue(raylet, now);
            if (!raylet.pod.equals(pod)) {
                containers.rayProcessExited(raylet.pod, false);
            }
        }
        register(pod, "headgroup", total, labels, now);
    }

    /** A raylet started in a worker container; it registers as a new node. False if there is no GCS to register with. */
    public synchronized boolean startRaylet(String pod, String type, Resources total, Map<String, String> labels) {
        if (!gcsUp) {
            return false;
        }
        register(pod, type, total, labels, clock.getAsDouble());
        return true;
    }

    /**
     * A raylet registers as a new node. Its pod name and group reach the GCS from {@code RAY_CLOUD_INSTANCE_ID} and
     * {@code RAY_NODE_TYPE_NAME}, the empty string without them (the raylet's constructor, {@code std::getenv}); Ray that
     * labels nodes adds {@code ray.io/node-id} and, from the group's variable, {@code ray.io/node-group}
     * ({@code _get_default_labels}), under the user's labels.
     */
    private void register(String pod, String type, Resources total, Map<String, String> labels, double now) {
        byte[] id = new byte[28];
        random.nextBytes(id);
        String nodeId = HexFormat.of().formatHex(id);
        Map<String, String> nodeLabels = new LinkedHashMap<>();
        if (release.labels()) {
            nodeLabels.put(NODE_ID_LABEL, nodeId);
            if (podEnv) {
                nodeLabels.put(NODE_GROUP_LABEL, type);
            }
            nodeLabels.putAll(labels);
        }
        Raylet raylet = new Raylet(nodeId, podEnv ? pod : "", pod, podEnv ? type : "", type, total, nodeLabels, now);
        alive.put(raylet.nodeId, raylet);
    }

    /**
     * The pod is being deleted. Gracefully (SIGTERM): the raylet unregisters and its node is DEAD at
     * once; abruptly (the pod vanished): the GCS keeps the node alive until its health checks fail (A4.19).
     * Work that ran there goes back to pending, as Ray retries tasks of a lost node.
     */
    public synchronized void stopPod(String pod, boolean graceful) {
        double now = clock.getAsDouble();
        if (pod.equals(headPod)) {
            gcsDown(now);
            return;
        }
        for (Raylet raylet : raylets(pod)) {
            requeue(raylet, now);
            if (graceful) {
                bury(raylet);
            } else {
                raylet.unreachable = true;
                raylet.deadAt = now + HEALTH_CHECK_DEAD_AFTER_SECONDS;
            }
        }
    }

    /** The raylet process in a running pod crashed: the GCS notices through its health checks (A4.19); the container ends. */
    public synchronized void crashRaylet(String pod) {
        double now = clock.getAsDouble();
        for (Raylet raylet : raylets(pod)) {
            requeue(raylet, now);
            raylet.unreachable = true;
            raylet.deadAt = now + HEALTH_CHECK_DEAD_AFTER_SECONDS;
        }
        containers.rayProcessExited(pod, false);
    }

    /** The GCS process exits (a failed RAY_CHECK, an out-of-memory kill): its container ends and restarts. */
    public synchronized void crashGcs() {
        gcsDown(clock.getAsDouble());
    }

    private void gcsDown(double now) {
        if (!gcsUp) {
            return;
        }
        gcsUp = false;
        alive.values().forEach(raylet -> requeue(raylet, now));
        if (headPod != null) {
            containers.rayProcessExited(headPod, false);
        }
    }

    private List<Raylet> raylets(String pod) {
        return alive.values().stream().filter(raylet -> raylet.pod.equals(pod) && !raylet.unreachable).toList();
    }

    private void bury(Raylet raylet) {
        alive.remove(raylet.nodeId);
        dead.put(raylet.nodeId, raylet);
        while (dead.size() > DEAD_NODE_CACHE) {
            dead.remove(dead.keySet().iterator().next());
        }
    }

    /** Work of a node that went away is retried: tasks with their remaining time, placement groups whole. */
    private void requeue(Raylet raylet, double now) {
        for (Raylet.Work work : raylet.running) {
            if (work.gang() == null) {
                pending.add(new Batch(work.shape(), Math.max(1, work.endSeconds() - now), new long[] {1}, work.selector()));
            }
        }
        raylet.running.stream().map(Raylet.Work::gang).filter(id -> id != null).distinct().forEach(id -> requeueGang(id, now));
        raylet.running.clear();
        raylet.available = raylet.total;
        raylet.placementGroups.clear();
    }

    private void requeueGang(String id, double now) {
        for (Raylet other : alive.values()) {
            other.running.removeIf(work -> {
                if (id.equals(work.gang())) {
                    other.available = other.available.plus(work.shape());
                    return true;
                }
                return false;
            });
            other.placementGroups.remove(id);
            if (other.running.isEmpty()) {
                other.idleSince = now;
            }
        }
        submitted.stream().filter(gang -> gang.id.equals(id)).findFirst().ifPresent(pendingGangs::add);
    }

    // ---- Work ----

    /** Queues the tasks at a raylet; the GCS learns of them at its next pull of the raylets' loads (A3.16). */
    public synchronized void submitTasks(Resources shape, long count, double seconds) {
        submitTasks(shape, count, seconds, Map.of(), version -> { });
    }

    /**
     * As {@link #submitTasks(Resources, long, double)}; {@code pulled} is told, at the pull that first carries them, the
     * GCS state version read last before it: the first read with a higher version is the first that sees them.
     */
    public synchronized void submitTasks(Resources shape, long count, double seconds, LongConsumer pulled) {
        submitTasks(shape, count, seconds, Map.of(), pulled);
    }

    /** As {@link #submitTasks(Resources, long, double, LongConsumer)}, each task going only to a node carrying {@code selector}'s labels. */
    public synchronized void submitTasks(Resources shape, long count, double seconds, Map<String, String> selector, LongConsumer pulled) {
        pending.add(new Batch(shape, seconds, new long[] {count}, Map.copyOf(selector)));
        awaitingPull.add(pulled);
    }

    /** A placement group; its id is hex, as Ray's are. */
    public synchronized void submitGang(String id, PlacementStrategy strategy, List<Resources> bundles, double seconds) {
        submitGang(id, strategy, bundles, List.of(), seconds);
    }

    /** As {@link #submitGang(String, PlacementStrategy, List, double)}, bundle i going only to a node carrying {@code selectors[i]}. */
    public synchronized void submitGang(String id, PlacementStrategy strategy, List<Resources> bundles, List<Map<String, String>> selectors,
            double seconds) {
        List<Map<String, String>> each = new ArrayList<>();
        for (int i = 0; i < bundles.size(); i++) {
            each.add(i < selectors.size() ? Map.copyOf(selectors.get(i)) : Map.of());
        }
        Gang gang = new Gang(HexFormat.of().formatHex(id.getBytes(StandardCharsets.UTF_8)), strategy, bundles, List.copyOf(each), seconds);
        submitted.add(gang);
        pendingGangs.add(gang);
    }

    /**
     * {@code ray.autoscaler.sdk.request_resources(num_cpus, bundles)} from a driver taking {@code path} (fact D48,
     * {@code commands.request_resources}): one bundle {@code {"CPU": 1}} per CPU, then the bundles, written to the KV key
     * {@code autoscaler_resource_request} on every call (as {@code {"resources", "label_selector"}} entries on Ray that
     * writes selectors, bare bundles before); on the v2 path also sent as the GCS's one stored constraint, identical
     * bundles counted together ({@code request_cluster_resources}), which replaces the one before (A5.23).
     */
    public synchronized void requestResources(int numCpus, List<Resources> bundles, ClientPath path) {
        List<Resources> requested = new ArrayList<>();
        for (int i = 0; i < numCpus; i++) {
            requested.add(Resources.of("CPU", "1"));
        }
        requested.addAll(bundles);
        kv.put(RayKv.RESOURCE_REQUEST, ByteString.copyFromUtf8(resourceRequestJson(requested)), true);
        if (!takesV2(path)) {
            return;
        }
        Map<Resources, Long> counted = new LinkedHashMap<>();
        requested.forEach(bundle -> counted.merge(bundle, 1L, Long::sum));
        constraint.clear();
        counted.forEach((shape, count) -> constraint.add(ResourceRequestByCount.newBuilder()
                .setRequest(ResourceRequest.newBuilder().putAllResourcesBundle(doubles(shape))).setCount(count).build()));
    }

    /** The bundles as {@code json.dumps} writes them; the SDK takes whole numbers, so whole amounts are written as integers. */
    private String resourceRequestJson(List<Resources> bundles) {
        List<String> entries = new ArrayList<>();
        for (Resources bundle : bundles) {
            List<String> amounts = new ArrayList<>();
            bundle.asMap().forEach((name, amount) -> amounts.add("\"" + name + "\": " + amount.toBigDecimal().stripTrailingZeros().toPlainString()));
            String resources = "{" + String.join(", ", amounts) + "}";
            entries.add(release.resourceRequestsWithSelectors() ? "{\"resources\": " + resources + ", \"label_selector\": {}}" : resources);
        }
        return "[" + String.join(", ", entries) + "]";
    }

    /** {@code is_autoscaler_v2()} in a client taking {@code path}: a release without the v2 path always answers v1. */
    private boolean takesV2(ClientPath path) {
        return release.hasV2ClientPath() && switch (path) {
            case V2 -> true;
            case V1 -> false;
            case FRESH -> kv.autoscalerV2();
        };
    }

    /** Ends finished work, marks nodes whose health checks failed DEAD, lets idle draining nodes exit, and schedules. */
    public synchronized void tick() {
        double now = clock.getAsDouble();
        for (Raylet raylet : List.copyOf(alive.values())) {
            if (raylet.unreachable) {
                if (now >= raylet.deadAt) {
                    bury(raylet);
                }
                continue;
            }
            completed += raylet.finish(now).stream().filter(work -> work.gang() == null).count();
            if (raylet.draining && raylet.idle()) {
                exitDrained(raylet);
            }
        }
        if (!gcsUp) {
            return;
        }
        pendingGangs.removeIf(gang -> placeGang(gang, now));
        for (Batch batch : pending) {
            for (Raylet raylet : alive.values()) {
                while (batch.remaining[0] > 0 && raylet.schedulable() && raylet.carries(batch.selector) && batch.shape.fitsIn(raylet.available)) {
                    raylet.start(batch.shape, now + batch.seconds, null, batch.selector);
                    batch.remaining[0]--;
                }
            }
        }
        pending.removeIf(batch -> batch.remaining[0] == 0);
        pullLoadsIfDue();
        // The newest monitor reads the nodes with GetClusterResourceState, which bumps the version like any read (A1.2); older
        // ones read GetAllResourceUsage, which does not.
        monitor.tickIfDue(now, () -> state(release.labels() ? ++version : version, now), kv);
    }

    /**
     * The GCS's pull of the raylets' loads, if a period has passed since the last: on the GCS's own timer, which a
     * simulator that falls behind its model (a fleet's) runs apart from its ticks, as the GCS does not wait for raylets.
     */
    public synchronized void pullLoadsIfDue() {
        double now = clock.getAsDouble();
        if (gcsUp && now - lastLoadPoll >= LOAD_POLL_SECONDS) {
            pullLoads(now);
        }
    }

    /**
     * The GCS's {@code RayletLoadPulled} task (A3.16): every alive raylet's load and usage, taken together, replace what the
     * GCS knew of it; a raylet that does not answer keeps its last report. Queued tasks are summed over them (A5.21).
     */
    private void pullLoads(double now) {
        lastLoadPoll = now;
        alive.values().stream().filter(raylet -> !raylet.unreachable).forEach(raylet -> raylet.report = raylet.reportAt(now));
        Map<Load, Long> load = new LinkedHashMap<>();
        pending.forEach(batch -> load.merge(new Load(batch.shape, batch.selector), batch.remaining[0], Long::sum));
        pulledLoad = load;
        awaitingPull.forEach(pulled -> pulled.accept(version));
        awaitingPull.clear();
    }

    /** A3.14: a draining raylet with nothing to do shuts itself down and unregisters: DEAD at once, its container ends cleanly. */
    private void exitDrained(Raylet raylet) {
        bury(raylet);
        containers.rayProcessExited(raylet.pod, true);
    }

    /** All or nothing: STRICT_PACK as one merged bundle, STRICT_SPREAD on distinct nodes, PACK and SPREAD anywhere. */
    private boolean placeGang(Gang gang, double now) {
        List<Raylet> chosen = new ArrayList<>();
        Map<Raylet, Resources> left = new LinkedHashMap<>();
        alive.values().stream().filter(Raylet::schedulable).forEach(raylet -> left.put(raylet, raylet.available));
        boolean strictPack = gang.strategy == PlacementStrategy.STRICT_PACK;
        List<Resources> bundles = strictPack ? List.of(gang.bundles.stream().reduce(Resources.NONE, Resources::plus)) : gang.bundles;
        List<Map<String, String>> selectors = strictPack ? List.of(merged(gang.selectors)) : gang.selectors;
        for (int i = 0; i < bundles.size(); i++) {
            Resources bundle = bundles.get(i);
            Raylet target = null;
            for (Map.Entry<Raylet, Resources> candidate : left.entrySet()) {
                boolean distinct = gang.strategy != PlacementStrategy.STRICT_SPREAD || !chosen.contains(candidate.getKey());
                if (distinct && candidate.getKey().carries(selectors.get(i)) && bundle.fitsIn(candidate.getValue())) {
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
            chosen.get(i).start(bundles.get(i), now + gang.seconds, gang.id, selectors.get(i));
        }
        return true;
    }

    private static Map<String, String> merged(List<Map<String, String>> selectors) {
        Map<String, String> all = new LinkedHashMap<>();
        selectors.forEach(all::putAll);
        return all;
    }

    // ---- The GCS's autoscaler service ----

    @Override
    public synchronized ClusterResourceState read(long lastSeenVersion) {
        refuseIfDown();
        if (lastSeenVersion > version) {
            // RAY_CHECK(request.last_seen_cluster_resource_state_version() <= last_cluster_resource_state_version_): FATAL, exit (A1.1).
            gcsExitsCausedByClients++;
            gcsDown(clock.getAsDouble());
            throw Status.UNAVAILABLE.withDescription("the GCS exited (RAY_CHECK failed)").asRuntimeException();
        }
        return state(++version, clock.getAsDouble());
    }

    private ClusterResourceState state(long stateVersion, double now) {
        ClusterResourceState.Builder state = ClusterResourceState.newBuilder()
                .setClusterResourceStateVersion(stateVersion).setClusterSessionName(sessionName);
        for (Raylet raylet : alive.values()) {
            // Status, idle time and resources from the last pull (as registered before the first); activity from the
            // node table, which the raylet's frequent usage messages keep current (GetNodeStates).
            Raylet.Report report = raylet.report != null ? raylet.report : new Raylet.Report(raylet.total, 0, false, now);
            NodeState.Builder node = identity(raylet).setNodeStateVersion(stateVersion)
                    .setStatus(report.draining() ? NodeStatus.DRAINING : report.idleMs() > 0 ? NodeStatus.IDLE : NodeStatus.RUNNING)
                    .putAllTotalResources(doubles(raylet.total)).putAllAvailableResources(doubles(report.available()))
                    .setIdleDurationMs(report.idleMs() > 0 ? report.idleMs() + (long) ((now - report.at()) * 1000) : 0)
                    .addAllNodeActivity(raylet.activity()).putAllLabels(raylet.labels);
            raylet.placementGroups.forEach(gang -> node.putDynamicLabels("_PG_" + gang, ""));
            state.addNodeStates(node);
        }
        for (Raylet raylet : dead.values()) {
            // A DEAD node carries its identity and status only (A4.18).
            state.addNodeStates(identity(raylet).setNodeStateVersion(stateVersion).setStatus(NodeStatus.DEAD));
        }
        pulledLoad.forEach((load, count) -> {
            if (count > 0) {
                state.addPendingResourceRequests(ResourceRequestByCount.newBuilder().setRequest(request(load.shape(), load.selector())).setCount(count));
            }
        });
        for (Gang gang : pendingGangs) {
            state.addPendingGangResourceRequests(gangRequest(gang));
        }
        if (!constraint.isEmpty()) {
            state.addClusterResourceConstraints(ClusterResourceConstraint.newBuilder().addAllResourceRequests(constraint));
        }
        return state.build();
    }

    private static NodeState.Builder identity(Raylet raylet) {
        return NodeState.newBuilder().setNodeId(ByteString.copyFrom(HexFormat.of().parseHex(raylet.nodeId)))
                .setInstanceId(raylet.instanceId).setRayNodeTypeName(raylet.typeName)
                .setNodeIpAddress("10.0." + (Math.abs(raylet.pod.hashCode()) % 250) + "." + (Math.abs(raylet.nodeId.hashCode()) % 250));
    }

    /**
     * A5.22: the unplaced bundles, strict strategies constrained on {@code _PG_<id>}, details {@code <id>:<STRATEGY>|PENDING}.
     * Ray that labels nodes also sends the bundles as one bundle selector, each with its label selector there only, the
     * placement constraints in both (D52; {@code GetPendingGangResourceRequests}: "Only one BundleSelector will be created
     * for now").
     */
    static GangResourceRequest gangRequest(String id, String strategy, List<Map<String, Double>> bundles, List<Map<String, String>> selectors,
            boolean bundleSelectors) {
        GangResourceRequest.Builder request = GangResourceRequest.newBuilder().setDetails(id + ":" + strategy + "|PENDING");
        BundleSelector.Builder selector = BundleSelector.newBuilder();
        for (int i = 0; i < bundles.size(); i++) {
            ResourceRequest.Builder resources = ResourceRequest.newBuilder().putAllResourcesBundle(bundles.get(i));
            if ("STRICT_PACK".equals(strategy)) {
                resources.addPlacementConstraints(PlacementConstraint.newBuilder()
                        .setAffinity(AffinityConstraint.newBuilder().setLabelName("_PG_" + id).setLabelValue("")));
            } else if ("STRICT_SPREAD".equals(strategy)) {
                resources.addPlacementConstraints(PlacementConstraint.newBuilder()
                        .setAntiAffinity(AntiAffinityConstraint.newBuilder().setLabelName("_PG_" + id).setLabelValue("")));
            }
            request.addRequests(resources.build());
            Map<String, String> labels = i < selectors.size() ? selectors.get(i) : Map.of();
            if (!labels.isEmpty()) {
                resources.addLabelSelectors(labelSelector(labels));
            }
            selector.addResourceRequests(resources);
        }
        if (bundleSelectors) {
            request.addBundleSelectors(selector);
        }
        return request.build();
    }

    private GangResourceRequest gangRequest(Gang gang) {
        return gangRequest(gang.id, gang.strategy.name(), gang.bundles.stream().map(RaySim::doubles).toList(), gang.selectors, release.labels());
    }

    /** A pending request: the shape, and on Ray that reports them its label selector (C43). */
    private ResourceRequest request(Resources shape, Map<String, String> selector) {
        ResourceRequest.Builder request = ResourceRequest.newBuilder().putAllResourcesBundle(doubles(shape));
        if (release.labels() && !selector.isEmpty()) {
            request.addLabelSelectors(labelSelector(selector));
        }
        return request.build();
    }

    private static LabelSelector labelSelector(Map<String, String> labels) {
        LabelSelector.Builder selector = LabelSelector.newBuilder();
        new TreeMap<>(labels).forEach((key, value) -> selector.addLabelConstraints(LabelSelectorConstraint.newBuilder().setLabelKey(key)
                .setOperator(LabelSelectorOperator.LABEL_OPERATOR_IN).addLabelValues(value)));
        return selector.build();
    }

    @Override
    public synchronized DrainNodeReply drain(DrainNodeRequest request) {
        refuseIfDown();
        if (request.getDeadlineTimestampMs() < 0) {
            throw Status.INVALID_ARGUMENT.withDescription("Invalid deadline timestamp " + request.getDeadlineTimestampMs()).asRuntimeException();
        }
        Raylet raylet = alive.get(HexFormat.of().formatHex(request.getNodeId().toByteArray()));
        if (raylet == null) {
            // "Since it's not running so still treat it as drained." (A3.11)
            return DrainNodeReply.newBuilder().setIsAccepted(true).build();
        }
        if (raylet.unreachable) {
            // The GCS forwards DrainRaylet to a raylet that no longer answers [inferred: the call fails].
            throw Status.UNAVAILABLE.withDescription("failed to reach raylet " + raylet.nodeId).asRuntimeException();
        }
        boolean idleTermination;
        if (release.draftDrainReasons()) {
            // The draft numbering (PR 37836): IDLE_TERMINATION = 0, PREEMPTION = 1; the reply had no rejection message.
            idleTermination = request.getReasonValue() == 0;
            if (idleTermination && !raylet.idle()) {
                return DrainNodeReply.newBuilder().setIsAccepted(false).build();
            }
        } else {
            idleTermination = request.getReason() == DrainNodeReason.DRAIN_NODE_REASON_IDLE_TERMINATION;
            if (!idleTermination && request.getReason() != DrainNodeReason.DRAIN_NODE_REASON_PREEMPTION) {
                // HandleDrainRaylet: RAY_CHECK_EQ(request.reason(), DRAIN_NODE_REASON_PREEMPTION) fails on any other reason and
                // the raylet exits; the GCS's call to it fails.
                requeue(raylet, clock.getAsDouble());
                raylet.unreachable = true;
                raylet.deadAt = clock.getAsDouble() + HEALTH_CHECK_DEAD_AFTER_SECONDS;
                containers.rayProcessExited(raylet.pod, false);
                throw Status.UNAVAILABLE.withDescription("failed to reach raylet " + raylet.nodeId).asRuntimeException();
            }
            if (idleTermination && !raylet.idle()) {
                return DrainNodeReply.newBuilder().setIsAccepted(false).setRejectionReasonMessage(IDLE_REJECTION).build();
            }
        }
        raylet.draining = true;
        if (raylet.idle()) {
            exitDrained(raylet);
        }
        return DrainNodeReply.newBuilder().setIsAccepted(true).build();
    }

    @Override
    public synchronized void report(ReportAutoscalingStateRequest request) {
        refuseIfDown();
        AutoscalingState state = request.getAutoscalingState();
        if (held == null || state.getAutoscalerStateVersion() >= held.getAutoscalerStateVersion()) {
            held = state;
        }
    }

    // ---- What the simulation and its checks read ----

    /** True if the pod's raylet runs work: deleting the pod now would kill it. */
    public synchronized boolean busy(String pod) {
        return alive.values().stream().anyMatch(raylet -> raylet.pod.equals(pod) && !raylet.unreachable && !raylet.idle());
    }

    /** How many times a client's read made the GCS exit (A1.1): Rayscale must never cause one. */
    public synchronized long gcsExitsCausedByClients() {
        return gcsExitsCausedByClients;
    }

    public synchronized boolean gcsUp() {
        return gcsUp;
    }

    public synchronized String sessionName() {
        return sessionName;
    }

    /**
     * What {@code ray status} prints now in a client taking {@code path} ({@link RayStatus}): on the v2 path a
     * {@code GetClusterStatus} call, which bumps the version like any read (A1.2); on the v1 path what the head's monitor
     * last wrote to the KV.
     *
     * @throws RayStatus.Failed where Ray's {@code ray status} fails
     */
    public synchronized String rayStatus(Instant wallClock, ClientPath path) {
        String error = kv.text(RayKv.AUTOSCALING_ERROR);
        if (takesV2(path)) {
            GetClusterStatusReply status = clusterStatus();
            return RayStatus.v2(status.getClusterResourceState(), status.getAutoscalingState(), wallClock, error);
        }
        return RayStatus.v1(kv.text(RayKv.AUTOSCALING_STATUS), error);
    }

    /** {@code ray status} run now as a command ({@link ClientPath#FRESH}). */
    public synchronized String rayStatus(Instant wallClock) {
        return rayStatus(wallClock, ClientPath.FRESH);
    }

    @Override
    public synchronized GetClusterStatusReply clusterStatus() {
        refuseIfDown();
        GetClusterStatusReply.Builder reply = GetClusterStatusReply.newBuilder().setClusterResourceState(state(++version, clock.getAsDouble()));
        if (held != null) {
            reply.setAutoscalingState(held);
        }
        return reply.build();
    }

    @Override
    public synchronized ByteString kvGet(RayKv.Key key) {
        refuseIfDown();
        return kv.get(key);
    }

    @Override
    public synchronized boolean kvPut(RayKv.Key key, ByteString value, boolean overwrite) {
        refuseIfDown();
        return kv.put(key, value, overwrite);
    }

    @Override
    public boolean servesAutoscalerState() {
        return release.servesAutoscalerState();
    }

    private void refuseIfDown() {
        if (!gcsUp) {
            throw Status.UNAVAILABLE.withDescription("failed to connect to the GCS").asRuntimeException();
        }
    }

    public synchronized Stats stats() {
        long queued = pending.stream().mapToLong(batch -> batch.remaining[0]).sum();
        long running = 0;
        long runningBundles = 0;
        int workers = 0;
        int busyWorkers = 0;
        for (Raylet raylet : alive.values()) {
            running += raylet.running.stream().filter(work -> work.gang() == null).count();
            runningBundles += raylet.running.stream().filter(work -> work.gang() != null).count();
            if (!raylet.pod.equals(headPod) && !raylet.unreachable) {
                workers++;
                busyWorkers += raylet.idle() ? 0 : 1;
            }
        }
        return new Stats(queued, pendingGangs.size(), running, runningBundles, completed, workers, busyWorkers);
    }

    /** What the simulated Ray cluster is doing. */
    public record Stats(long pendingTasks, int pendingGangs, long runningTasks, long runningGangBundles, long completedTasks,
            int registeredWorkers, int busyWorkers) {

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
