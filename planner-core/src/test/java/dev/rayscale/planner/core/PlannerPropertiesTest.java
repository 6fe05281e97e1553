package dev.rayscale.planner.core;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rayscale.events.ClusterRef;
import dev.rayscale.events.ClusterSnapshot;
import dev.rayscale.events.DecisionMode;
import dev.rayscale.events.DeletionCause;
import dev.rayscale.events.Demand;
import dev.rayscale.events.DemandKind;
import dev.rayscale.events.GangDemand;
import dev.rayscale.events.GcsSource;
import dev.rayscale.events.GroupTarget;
import dev.rayscale.events.HeadGroup;
import dev.rayscale.events.InfeasibleDemand;
import dev.rayscale.events.KubernetesSource;
import dev.rayscale.events.NodeStatus;
import dev.rayscale.events.Packing;
import dev.rayscale.events.PendingLaunch;
import dev.rayscale.events.PendingPod;
import dev.rayscale.events.PlacementStrategy;
import dev.rayscale.events.PodDeletion;
import dev.rayscale.events.Quantity;
import dev.rayscale.events.RayNode;
import dev.rayscale.events.Reason;
import dev.rayscale.events.ReasonCode;
import dev.rayscale.events.Resources;
import dev.rayscale.events.ScaleDecision;
import dev.rayscale.events.ScalingPolicy;
import dev.rayscale.events.SourceHealth;
import dev.rayscale.events.TaskDemand;
import dev.rayscale.events.UpscalingMode;
import dev.rayscale.events.WorkerGroup;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.stream.LongStream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Properties that must hold for any cluster, checked on random ones. Each cluster is generated from a
 * seed, so a failure names the seed that reproduces it: {@code randomCluster(seed)}.
 */
class PlannerPropertiesTest {

    private static final int CLUSTERS = 400;

    private static final List<String> KINDS = List.of("CPU", "GPU", "memory");
    private final Planner planner = new Planner(PlannerSettings.defaults("test"));
    private final Planner economical = new Planner(PlannerSettings.defaults("test").withPacking(Packing.ECONOMICAL));

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void staysWithinMinAndMax(long seed) {
        ClusterSnapshot snapshot = randomCluster(seed);
        ScaleDecision decision = planner.plan(snapshot);
        for (GroupTarget target : decision.groups()) {
            WorkerGroup group = snapshot.workerGroups().get(target.index());
            assertThat(target.targetReplicas()).as(group.name() + " at or above min").isGreaterThanOrEqualTo(group.minReplicas());
            if (snapshot.hasRayState()) {
                assertThat(target.targetReplicas()).as(group.name() + " at or below max").isLessThanOrEqualTo(group.maxReplicas());
            }
        }
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void neverScalesDownOnUnknownState(long seed) {
        ClusterSnapshot snapshot = randomCluster(seed);
        ClusterSnapshot unknown = withoutRayState(snapshot);
        ScaleDecision decision = planner.plan(unknown);
        for (GroupTarget target : decision.groups()) {
            WorkerGroup group = unknown.workerGroups().get(target.index());
            assertThat(target.targetReplicas()).isGreaterThanOrEqualTo(Math.max(group.replicas(), group.minReplicas()));
            assertThat(target.toDelete()).isEmpty();
        }
        assertThat(decision.infeasible()).isEmpty();
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void neverDeletesABusyNode(long seed) {
        ClusterSnapshot snapshot = randomCluster(seed);
        ScaleDecision decision = planner.plan(snapshot);
        Map<String, RayNode> nodes = new HashMap<>();
        snapshot.nodes().forEach(node -> nodes.put(node.podName(), node));
        Set<String> waiting = new HashSet<>();
        snapshot.pendingPods().forEach(pod -> waiting.add(pod.podName()));
        for (GroupTarget target : decision.groups()) {
            for (PodDeletion deletion : target.toDelete()) {
                RayNode node = nodes.get(deletion.podName());
                if (node == null) {
                    assertThat(waiting).as("a deleted pod that is not a Ray node must be waiting for one").contains(deletion.podName());
                    continue;
                }
                assertThat(node.status()).as(deletion.podName() + " deleted while busy").isEqualTo(NodeStatus.IDLE);
                if (deletion.cause() == DeletionCause.IDLE) {
                    assertThat(node.idleDurationMs()).isGreaterThan(snapshot.policy().idleTimeoutSeconds() * 1000);
                }
            }
        }
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void placesNoMoreThanTheCapacityItPlansFor(long seed) {
        ClusterSnapshot snapshot = randomCluster(seed);
        assertPlacedWithinCapacity(snapshot, planner.plan(snapshot));
        assertPlacedWithinCapacity(snapshot, economical.plan(snapshot));
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void economicalPackingNeverCostsMoreThanRaysAndPlacesAsMuch(long seed) {
        ClusterSnapshot snapshot = randomCluster(seed);
        ScaleDecision ray = planner.plan(snapshot);
        ScaleDecision cheaper = economical.plan(snapshot);

        assertThat(cost(snapshot, cheaper)).isLessThanOrEqualTo(cost(snapshot, ray));
        assertThat(cheaper.infeasible()).containsExactlyInAnyOrderElementsOf(ray.infeasible());
    }

    private static BigDecimal cost(ClusterSnapshot snapshot, ScaleDecision decision) {
        return decision.groups().stream().map(target -> NodeCost.of(snapshot.workerGroups().get(target.index()))
                .multiply(BigDecimal.valueOf((long) target.targetReplicas() * snapshot.workerGroups().get(target.index()).numOfHosts())))
                .reduce(BigDecimal.ZERO, BigDecimal::add);
    }

    private static void assertPlacedWithinCapacity(ClusterSnapshot snapshot, ScaleDecision decision) {
        Map<String, Long> demand = new HashMap<>();
        Map<Resources, Long> infeasibleTasks = new HashMap<>();
        Set<String> infeasibleGangs = new HashSet<>();
        for (InfeasibleDemand infeasible : decision.infeasible()) {
            if (infeasible.kind() == DemandKind.TASK) {
                infeasibleTasks.merge(infeasible.shape(), infeasible.count(), Long::sum);
            } else if (infeasible.kind() == DemandKind.GANG) {
                infeasibleGangs.add(infeasible.gangId());
            }
        }
        Map<Resources, Long> asked = new HashMap<>();
        snapshot.demand().tasks().forEach(task -> asked.merge(task.shape(), task.count(), Long::sum));
        asked.forEach((shape, count) -> add(demand, shape, count - infeasibleTasks.getOrDefault(shape, 0L)));
        for (GangDemand gang : snapshot.demand().gangs()) {
            if (!infeasibleGangs.contains(gang.id())) {
                gang.bundles().forEach(bundle -> add(demand, bundle, 1));
            }
        }
        Map<String, Long> capacity = capacityAfter(snapshot, decision);
        demand.forEach((kind, units) -> assertThat(units).as("placed " + kind + " within planned capacity")
                .isLessThanOrEqualTo(capacity.getOrDefault(kind, 0L)));
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void doesNotDependOnTheOrderOfDemand(long seed) {
        ClusterSnapshot snapshot = randomCluster(seed);
        Random random = new Random(~seed);
        List<TaskDemand> tasks = new ArrayList<>(snapshot.demand().tasks());
        List<GangDemand> gangs = new ArrayList<>(snapshot.demand().gangs());
        Collections.shuffle(tasks, random);
        Collections.shuffle(gangs, random);
        ClusterSnapshot shuffled = new ClusterSnapshot(snapshot.schemaVersion(), snapshot.id(), snapshot.cluster(), snapshot.sequence(),
                snapshot.observedAt(), snapshot.sources(), snapshot.policy(), snapshot.headGroup(), snapshot.workerGroups(),
                snapshot.nodes(), snapshot.pendingPods(), new Demand(tasks, gangs, snapshot.demand().constraints()));

        ScaleDecision original = planner.plan(snapshot);
        ScaleDecision reordered = planner.plan(shuffled);

        assertThat(reordered.groups()).isEqualTo(original.groups());
        assertThat(reordered.launches()).isEqualTo(original.launches());
        assertThat(new HashSet<>(reordered.infeasible())).isEqualTo(new HashSet<>(original.infeasible()));
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void explainsEveryChangeAsDataAndRendersTheTextFromIt(long seed) {
        ClusterSnapshot snapshot = randomCluster(seed);
        ScaleDecision unknown = planner.plan(withoutRayState(snapshot));
        assertThat(unknown.mode()).isEqualTo(DecisionMode.HOLD);
        assertThat(unknown.codedReasons().get(0).code()).isEqualTo(ReasonCode.GCS_UNREADABLE);
        for (ScaleDecision decision : List.of(planner.plan(snapshot), unknown)) {
            assertThat(decision.reasons()).isEqualTo(Reason.texts(decision.codedReasons()));
            Set<String> explained = new HashSet<>();
            decision.codedReasons().stream().filter(reason -> reason.code() == ReasonCode.REPLICAS_CHANGED)
                    .forEach(reason -> explained.add(reason.group()));
            Set<String> changed = new HashSet<>();
            decision.groups().stream().filter(group -> group.targetReplicas() != group.currentReplicas())
                    .forEach(group -> changed.add(group.name()));
            assertThat(explained).as("groups whose replicas change have a REPLICAS_CHANGED reason").isEqualTo(changed);
        }
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void isDeterministic(long seed) {
        ClusterSnapshot snapshot = randomCluster(seed);
        assertThat(planner.plan(snapshot)).isEqualTo(planner.plan(snapshot));
    }

    /** Available resources of the nodes kept, plus whole nodes for pods and replicas on their way (a replaced pod counts). */
    private static Map<String, Long> capacityAfter(ClusterSnapshot snapshot, ScaleDecision decision) {
        Set<String> deleted = new HashSet<>();
        decision.groups().forEach(group -> group.toDelete().stream().filter(d -> d.cause() != DeletionCause.STUCK_PENDING)
                .forEach(d -> deleted.add(d.podName())));
        Map<String, Long> capacity = new HashMap<>();
        for (RayNode node : snapshot.nodes()) {
            if (!deleted.contains(node.podName()) && node.status() != NodeStatus.DRAINING) {
                add(capacity, node.available(), 1);
            }
        }
        Map<String, WorkerGroup> groups = new HashMap<>();
        snapshot.workerGroups().forEach(group -> groups.put(group.name(), group));
        for (PendingPod pod : snapshot.pendingPods()) {
            if (!deleted.contains(pod.podName())) {
                add(capacity, groups.get(pod.group()).resources(), 1);
            }
        }
        for (PendingLaunch launch : decision.launches()) {
            WorkerGroup group = groups.get(launch.group());
            long registered = snapshot.pendingPods().stream().filter(p -> p.group().equals(group.name())).count();
            add(capacity, group.resources(), launch.requested() + launch.pending() - registered);
        }
        return capacity;
    }

    private static void add(Map<String, Long> totals, Resources resources, long times) {
        resources.asMap().forEach((kind, amount) -> totals.merge(kind, amount.units() * times, Long::sum));
    }

    private static ClusterSnapshot withoutRayState(ClusterSnapshot snapshot) {
        return new ClusterSnapshot(snapshot.schemaVersion(), snapshot.id(), snapshot.cluster(), snapshot.sequence(), snapshot.observedAt(),
                new SourceHealth(GcsSource.unavailable("DEADLINE_EXCEEDED", "timed out"), snapshot.sources().kubernetes()), snapshot.policy(),
                snapshot.headGroup(), snapshot.workerGroups(), null, null, null);
    }

    static LongStream seeds() {
        return LongStream.range(0, CLUSTERS);
    }

    /** A random cluster from a seed; every seed gives a valid cluster. */
    static ClusterSnapshot randomCluster(long seed) {
        Random random = new Random(seed);
        List<WorkerGroup> groups = new ArrayList<>();
        List<RayNode> nodes = new ArrayList<>();
        List<PendingPod> pending = new ArrayList<>();
        int groupCount = 1 + random.nextInt(3);
        for (int g = 0; g < groupCount; g++) {
            String name = "g" + g;
            Resources resources = random.nextInt(4) == 0
                    ? Resources.of("CPU", String.valueOf(4 << random.nextInt(2)), "GPU", "1", "memory", "16")
                    : Resources.of("CPU", String.valueOf(1 << random.nextInt(4)), "memory", String.valueOf(4 << random.nextInt(3)));
            int min = random.nextInt(3);
            int max = min + random.nextInt(7);
            int registered = random.nextInt(max + 2);
            int waiting = random.nextInt(3);
            int replicas = Math.max(0, registered + waiting + random.nextInt(3) - 1);
            groups.add(new WorkerGroup(name, g, replicas, min, max, 1, resources, Map.of(), List.of(), null, false));
            for (int n = 0; n < registered; n++) {
                boolean idle = random.nextBoolean();
                Resources available = idle ? resources : partOf(resources, random);
                nodes.add(new RayNode("id-" + name + "-" + n, name + "-" + n, null, name, idle ? NodeStatus.IDLE : NodeStatus.RUNNING,
                        resources, available, idle ? random.nextInt(200_000) : 0, Map.of(), null, List.of()));
            }
            for (int n = 0; n < waiting; n++) {
                pending.add(new PendingPod(name + "-w" + n, null, name, "Pending", null,
                        Snapshots.NOW.minus(Duration.ofSeconds(random.nextInt(2000)))));
            }
        }
        List<TaskDemand> tasks = new ArrayList<>();
        for (int t = random.nextInt(5); t > 0; t--) {
            tasks.add(new TaskDemand(randomShape(random), 1 + random.nextInt(30)));
        }
        List<GangDemand> gangs = new ArrayList<>();
        for (int p = random.nextInt(3); p > 0; p--) {
            List<Resources> bundles = new ArrayList<>();
            for (int b = 1 + random.nextInt(4); b > 0; b--) {
                bundles.add(randomShape(random));
            }
            gangs.add(new GangDemand("pg" + p, PlacementStrategy.values()[random.nextInt(4)], bundles, null));
        }
        nodes.add(0, new RayNode("id-head", "head", null, "headgroup", NodeStatus.RUNNING, Resources.of("memory", "8"),
                Resources.of("memory", "8"), 0, Map.of(), null, List.of()));
        ScalingPolicy policy = new ScalingPolicy(UpscalingMode.DEFAULT, null, 60, null, null, null,
                random.nextBoolean(), false);
        return new ClusterSnapshot(ClusterSnapshot.SCHEMA_VERSION, "snap-" + seed, new ClusterRef("props", "c", null), 1, Snapshots.NOW,
                new SourceHealth(GcsSource.ok(1, "s"), KubernetesSource.ok("1", 1)), policy,
                new HeadGroup("headgroup", Resources.of("memory", "8"), Map.of()), groups, nodes, pending,
                new Demand(tasks, gangs, List.of()));
    }

    private static Resources randomShape(Random random) {
        String cpu = List.of("0.5", "1", "2", "3", "4", "16").get(random.nextInt(6));
        return random.nextInt(5) == 0 ? Resources.of("CPU", cpu, "GPU", "1") : Resources.of("CPU", cpu, "memory", String.valueOf(random.nextInt(3)));
    }

    private static Resources partOf(Resources total, Random random) {
        Map<String, Quantity> available = new HashMap<>();
        total.asMap().forEach((kind, amount) -> available.put(kind, Quantity.ofUnits(amount.units() * random.nextInt(3) / 2)));
        return Resources.of(available);
    }
}
