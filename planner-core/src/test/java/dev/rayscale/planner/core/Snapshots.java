package dev.rayscale.planner.core;

import dev.rayscale.events.ClusterRef;
import dev.rayscale.events.ClusterSnapshot;
import dev.rayscale.events.ClusterVersions;
import dev.rayscale.events.Demand;
import dev.rayscale.events.GangDemand;
import dev.rayscale.events.GcsSource;
import dev.rayscale.events.HeadGroup;
import dev.rayscale.events.KubernetesSource;
import dev.rayscale.events.LabelSelector;
import dev.rayscale.events.NodeStatus;
import dev.rayscale.events.PendingPod;
import dev.rayscale.events.PlacementStrategy;
import dev.rayscale.events.RayNode;
import dev.rayscale.events.ResourceConstraint;
import dev.rayscale.events.Resources;
import dev.rayscale.events.ScalingPolicy;
import dev.rayscale.events.ShapeCount;
import dev.rayscale.events.SourceHealth;
import dev.rayscale.events.SourceStatus;
import dev.rayscale.events.Support;
import dev.rayscale.events.TaskDemand;
import dev.rayscale.events.UpscalingMode;
import dev.rayscale.events.VersionSource;
import dev.rayscale.events.WorkerGroup;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/** Small builders for test snapshots, in the spirit of cluster-autoscaler's BuildTestPod. */
final class Snapshots {

    static final Instant NOW = Instant.parse("2026-11-30T10:00:00Z");

    private final List<WorkerGroup> groups = new ArrayList<>();
    private final List<RayNode> nodes = new ArrayList<>();
    private final List<PendingPod> pending = new ArrayList<>();
    private final List<TaskDemand> tasks = new ArrayList<>();
    private final List<GangDemand> gangs = new ArrayList<>();
    private final List<ResourceConstraint> constraints = new ArrayList<>();
    private ScalingPolicy policy = ScalingPolicy.defaults();
    private Resources head = Resources.of("memory", "2147483648");
    private GcsSource gcs = GcsSource.ok(1, "session");
    private KubernetesSource kubernetes = KubernetesSource.ok("100", 1);
    private String id = "snap-1";
    private ClusterVersions versions;

    static Snapshots cluster() {
        return new Snapshots();
    }

    /** The reference walk-through: head with num-cpus 0, one 1 CPU / 1 GiB group, min 0, max 20. */
    static Snapshots walkthrough() {
        return cluster().group(group("small-group", 0, 0, 20, "CPU", "1", "memory", "1073741824"));
    }

    static WorkerGroup group(String name, int replicas, int min, int max, String... resources) {
        return new WorkerGroup(name, 0, replicas, min, max, 1, Resources.of(resources), Map.of(), List.of(), null, false);
    }

    Snapshots group(WorkerGroup group) {
        groups.add(new WorkerGroup(group.name(), groups.size(), group.replicas(), group.minReplicas(), group.maxReplicas(),
                group.numOfHosts(), group.resources(), group.labels(), group.workersToDelete(), group.idleTimeoutSeconds(),
                group.suspended(), group.terminatingPods(), group.launchFailure(), group.nodeCost()));
        return this;
    }

    Snapshots id(String snapshotId) {
        this.id = snapshotId;
        return this;
    }

    /** A registered node, busy: {@code available} says what is free. */
    Snapshots busy(String pod, String group, Resources total, Resources available) {
        nodes.add(new RayNode("id-" + pod, pod, null, group, NodeStatus.RUNNING, total, available, 0, Map.of(), null, List.of()));
        return this;
    }

    /** A registered node Ray reports idle for {@code idle}. */
    Snapshots idle(String pod, String group, Resources total, Duration idle) {
        nodes.add(new RayNode("id-" + pod, pod, null, group, NodeStatus.IDLE, total, total, idle.toMillis(), Map.of(), null, List.of()));
        return this;
    }

    Snapshots node(RayNode node) {
        nodes.add(node);
        return this;
    }

    Snapshots pendingPod(String pod, String group, Duration age) {
        pending.add(new PendingPod(pod, null, group, "Pending", "Unschedulable", NOW.minus(age)));
        return this;
    }

    Snapshots pendingPod(PendingPod pod) {
        pending.add(pod);
        return this;
    }

    Snapshots tasks(long count, String... shape) {
        tasks.add(new TaskDemand(Resources.of(shape), count));
        return this;
    }

    Snapshots tasks(long count, List<LabelSelector> selectors, String... shape) {
        tasks.add(new TaskDemand(Resources.of(shape), count, selectors));
        return this;
    }

    Snapshots gang(String gangId, PlacementStrategy strategy, Resources... bundles) {
        gangs.add(new GangDemand(gangId, strategy, Arrays.asList(bundles), null));
        return this;
    }

    Snapshots gang(GangDemand gang) {
        gangs.add(gang);
        return this;
    }

    Snapshots constraint(long count, String... shape) {
        constraints.add(new ResourceConstraint(List.of(new ShapeCount(Resources.of(shape), count))));
        return this;
    }

    Snapshots head(String... resources) {
        head = Resources.of(resources);
        return this;
    }

    Snapshots policy(ScalingPolicy scalingPolicy) {
        this.policy = scalingPolicy;
        return this;
    }

    Snapshots mode(UpscalingMode mode) {
        return policy(new ScalingPolicy(mode, policy.upscalingSpeed(), policy.idleTimeoutSeconds(), policy.maxWorkers(),
                policy.maxPendingLaunches(), policy.pendingPodPatienceSeconds(), policy.replaceStuckPods(), policy.suspended()));
    }

    Snapshots speed(String speed) {
        return policy(new ScalingPolicy(policy.upscalingMode(), new BigDecimal(speed), policy.idleTimeoutSeconds(), policy.maxWorkers(),
                policy.maxPendingLaunches(), policy.pendingPodPatienceSeconds(), policy.replaceStuckPods(), policy.suspended()));
    }

    Snapshots idleTimeout(long seconds) {
        return policy(new ScalingPolicy(policy.upscalingMode(), policy.upscalingSpeed(), seconds, policy.maxWorkers(),
                policy.maxPendingLaunches(), policy.pendingPodPatienceSeconds(), policy.replaceStuckPods(), policy.suspended()));
    }

    Snapshots maxWorkers(int cap) {
        return policy(new ScalingPolicy(policy.upscalingMode(), policy.upscalingSpeed(), policy.idleTimeoutSeconds(), cap,
                policy.maxPendingLaunches(), policy.pendingPodPatienceSeconds(), policy.replaceStuckPods(), policy.suspended()));
    }

    Snapshots maxPendingLaunches(int cap) {
        return policy(new ScalingPolicy(policy.upscalingMode(), policy.upscalingSpeed(), policy.idleTimeoutSeconds(), policy.maxWorkers(),
                cap, policy.pendingPodPatienceSeconds(), policy.replaceStuckPods(), policy.suspended()));
    }

    Snapshots stuckPodPolicy(long patienceSeconds, boolean replace) {
        return policy(new ScalingPolicy(policy.upscalingMode(), policy.upscalingSpeed(), policy.idleTimeoutSeconds(), policy.maxWorkers(),
                policy.maxPendingLaunches(), patienceSeconds, replace, policy.suspended()));
    }

    Snapshots suspended() {
        return policy(new ScalingPolicy(policy.upscalingMode(), policy.upscalingSpeed(), policy.idleTimeoutSeconds(), policy.maxWorkers(),
                policy.maxPendingLaunches(), policy.pendingPodPatienceSeconds(), policy.replaceStuckPods(), true));
    }

    Snapshots gcsUnavailable(String code, String detail) {
        gcs = GcsSource.unavailable(code, detail);
        return this;
    }

    Snapshots kubernetesStale(String error) {
        kubernetes = new KubernetesSource(SourceStatus.STALE, error, "100", 1);
        return this;
    }

    Snapshots notReconciled(String why) {
        kubernetes = kubernetes.notReconciled(why);
        return this;
    }

    /** The cluster runs Ray {@code ray} (read from the GCS), and Rayscale gives it {@code support} for {@code limit}. */
    Snapshots versions(String ray, Support support, String limit) {
        versions = new ClusterVersions(ray, VersionSource.GCS, null, support, List.of(limit));
        return this;
    }

    ClusterSnapshot build() {
        boolean known = gcs.isAvailable();
        return new ClusterSnapshot(ClusterSnapshot.SCHEMA_VERSION, id, new ClusterRef("default", "test", "uid"), 7, NOW,
                new SourceHealth(gcs, kubernetes), policy, new HeadGroup("headgroup", head, Map.of()), groups,
                known ? withHead(nodes) : null, known ? pending : null, known ? new Demand(tasks, gangs, constraints) : null, versions);
    }

    private List<RayNode> withHead(List<RayNode> workers) {
        List<RayNode> all = new ArrayList<>();
        all.add(new RayNode("id-head", "head-pod", null, "headgroup", NodeStatus.RUNNING, head, head, 0, Map.of(), null, List.of()));
        all.addAll(workers);
        return all;
    }
}
