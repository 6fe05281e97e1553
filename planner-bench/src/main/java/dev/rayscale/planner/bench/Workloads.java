package dev.rayscale.planner.bench;

import dev.rayscale.events.ClusterRef;
import dev.rayscale.events.ClusterSnapshot;
import dev.rayscale.events.Demand;
import dev.rayscale.events.GangDemand;
import dev.rayscale.events.GcsSource;
import dev.rayscale.events.HeadGroup;
import dev.rayscale.events.KubernetesSource;
import dev.rayscale.events.NodeStatus;
import dev.rayscale.events.PlacementStrategy;
import dev.rayscale.events.Quantity;
import dev.rayscale.events.RayNode;
import dev.rayscale.events.Resources;
import dev.rayscale.events.ScalingPolicy;
import dev.rayscale.events.SourceHealth;
import dev.rayscale.events.TaskDemand;
import dev.rayscale.events.UpscalingMode;
import dev.rayscale.events.WorkerGroup;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * Generated clusters of a given size: five worker types (two CPU, two GPU, one high-memory), nodes
 * spread over them with random free resources, and demand in a fixed number of shapes.
 */
public final class Workloads {

    private static final long GIB = 1L << 30;
    private static final PlacementStrategy[] STRATEGIES = PlacementStrategy.values();

    private Workloads() {
    }

    /** The sizes the planner is held to, by name. */
    public static ClusterSnapshot named(String name) {
        return switch (name) {
            case "100n-1k" -> tasks(100, 1_000, 20);
            case "1kn-10k" -> tasks(1_000, 10_000, 20);
            case "2kn-100k" -> tasks(2_000, 100_000, 20);
            case "100n-1kpg" -> placementGroups(100, 1_000, 4);
            default -> throw new IllegalArgumentException("unknown workload " + name);
        };
    }

    public static ClusterSnapshot tasks(int nodes, long demands, int shapes) {
        Random random = new Random(42);
        List<Resources> pool = shapes(random, shapes);
        List<TaskDemand> tasks = new ArrayList<>();
        long left = demands;
        for (int s = 0; s < shapes; s++) {
            long count = s == shapes - 1 ? left : demands / shapes;
            left -= count;
            tasks.add(new TaskDemand(pool.get(s), count));
        }
        return snapshot(random, nodes, new Demand(tasks, List.of(), List.of()));
    }

    public static ClusterSnapshot placementGroups(int nodes, int groups, int bundles) {
        Random random = new Random(42);
        List<Resources> pool = shapes(random, 20);
        List<GangDemand> gangs = new ArrayList<>();
        for (int g = 0; g < groups; g++) {
            List<Resources> gangBundles = new ArrayList<>();
            Resources shape = pool.get(random.nextInt(pool.size()));
            for (int b = 0; b < bundles; b++) {
                gangBundles.add(shape);
            }
            gangs.add(new GangDemand(String.format("pg%05d", g), STRATEGIES[g % STRATEGIES.length], gangBundles, null));
        }
        return snapshot(random, nodes, new Demand(List.of(), gangs, List.of()));
    }

    private static ClusterSnapshot snapshot(Random random, int nodes, Demand demand) {
        List<WorkerGroup> groups = List.of(
                group("cpu-4", 0, nodes, Resources.of("CPU", "4", "memory", String.valueOf(16 * GIB))),
                group("cpu-16", 1, nodes, Resources.of("CPU", "16", "memory", String.valueOf(64 * GIB))),
                group("gpu-1", 2, nodes, Resources.of("CPU", "8", "GPU", "1", "memory", String.valueOf(32 * GIB))),
                group("gpu-4", 3, nodes, Resources.of("CPU", "32", "GPU", "4", "memory", String.valueOf(128 * GIB))),
                group("mem-8", 4, nodes, Resources.of("CPU", "8", "memory", String.valueOf(256 * GIB))));
        List<RayNode> rayNodes = new ArrayList<>();
        Resources head = Resources.of("memory", String.valueOf(8 * GIB));
        rayNodes.add(new RayNode("head", "head", null, "headgroup", NodeStatus.RUNNING, head, head, 0, Map.of(), null, List.of()));
        int[] perGroup = new int[groups.size()];
        for (int n = 0; n < nodes; n++) {
            WorkerGroup group = groups.get(n % groups.size());
            perGroup[n % groups.size()]++;
            Resources available = partOf(group.resources(), random);
            boolean idle = available.equals(group.resources());
            rayNodes.add(new RayNode("node-" + n, group.name() + "-" + n, null, group.name(), idle ? NodeStatus.IDLE : NodeStatus.RUNNING,
                    group.resources(), available, idle ? 5_000 : 0, Map.of(), null, List.of()));
        }
        List<WorkerGroup> sized = new ArrayList<>();
        for (int g = 0; g < groups.size(); g++) {
            WorkerGroup group = groups.get(g);
            sized.add(new WorkerGroup(group.name(), g, perGroup[g], 0, group.maxReplicas(), 1, group.resources(), Map.of(), List.of(),
                    null, false));
        }
        return new ClusterSnapshot(ClusterSnapshot.SCHEMA_VERSION, "bench", new ClusterRef("bench", "cluster", null), 1,
                Instant.parse("2026-11-30T00:00:00Z"), new SourceHealth(GcsSource.ok(1, "bench"), KubernetesSource.ok("1", 1)),
                new ScalingPolicy(UpscalingMode.DEFAULT, null, 60, null, Integer.MAX_VALUE, null, false, false),
                new HeadGroup("headgroup", head, Map.of()), sized, rayNodes, List.of(), demand);
    }

    private static WorkerGroup group(String name, int index, int nodes, Resources resources) {
        return new WorkerGroup(name, index, 0, 0, nodes * 10, 1, resources, Map.of(), List.of(), null, false);
    }

    private static List<Resources> shapes(Random random, int count) {
        String[] cpus = {"0.5", "1", "2", "4", "8"};
        List<Resources> shapes = new ArrayList<>();
        while (shapes.size() < count) {
            String cpu = cpus[random.nextInt(cpus.length)];
            long memory = (1L + random.nextInt(16)) * GIB;
            Resources shape = random.nextInt(5) == 0
                    ? Resources.of("CPU", cpu, "GPU", "1", "memory", String.valueOf(memory))
                    : Resources.of("CPU", cpu, "memory", String.valueOf(memory));
            if (!shapes.contains(shape)) {
                shapes.add(shape);
            }
        }
        return shapes;
    }

    private static Resources partOf(Resources total, Random random) {
        int eighths = random.nextInt(9);
        Map<String, Quantity> amounts = new HashMap<>();
        total.asMap().forEach((kind, amount) -> amounts.put(kind, Quantity.ofUnits(amount.units() / 8 * eighths)));
        return Resources.of(amounts);
    }
}
