package dev.rayscale.planner.bench;

import dev.rayscale.events.ClusterRef;
import dev.rayscale.events.ClusterSnapshot;
import dev.rayscale.events.Demand;
import dev.rayscale.events.GangDemand;
import dev.rayscale.events.GcsSource;
import dev.rayscale.events.HeadGroup;
import dev.rayscale.events.KubernetesSource;
import dev.rayscale.events.LabelConstraint;
import dev.rayscale.events.LabelOperator;
import dev.rayscale.events.LabelSelector;
import dev.rayscale.events.NodeStatus;
import dev.rayscale.events.PlacementStrategy;
import dev.rayscale.events.Quantity;
import dev.rayscale.events.RayNode;
import dev.rayscale.events.ResourceConstraint;
import dev.rayscale.events.Resources;
import dev.rayscale.events.ScalingPolicy;
import dev.rayscale.events.ShapeCount;
import dev.rayscale.events.SourceHealth;
import dev.rayscale.events.TaskDemand;
import dev.rayscale.events.UpscalingMode;
import dev.rayscale.events.WorkerGroup;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * Generated clusters for the packing cost benchmark, each from its seed: 3 to 8 node types out of a
 * catalogue of CPU, high-memory and GPU machines, each priced at list price (1 per CPU, 0.125 per GiB,
 * 25 per GPU) times a random discount or premium of up to 30% and labelled with one of two zones;
 * 10 to 2,000 existing nodes at random fill; and mixed demand: tasks in 3 to 15 shapes (some GPU, some
 * held to a zone by a label selector), placement groups of every strategy, and sometimes a
 * request_resources constraint. Demand is sized against the cluster, so that most cases open nodes.
 */
public final class CostCases {

    private static final long GIB = 1L << 30;
    private static final String[][] CATALOGUE = {
        {"cpu-2", "2", "0", "8"}, {"cpu-4", "4", "0", "16"}, {"cpu-8", "8", "0", "32"}, {"cpu-16", "16", "0", "64"},
        {"cpu-32", "32", "0", "128"}, {"highmem-8", "8", "0", "64"}, {"highmem-16", "16", "0", "128"},
        {"gpu-1", "8", "1", "32"}, {"gpu-4", "32", "4", "128"}, {"gpu-8", "64", "8", "256"},
    };
    private static final PlacementStrategy[] STRATEGIES = PlacementStrategy.values();

    private CostCases() {
    }

    public static ClusterSnapshot generate(long seed) {
        Random random = new Random(seed);
        List<WorkerGroup> groups = types(random);
        int nodes = (int) Math.round(Math.exp(Math.log(10) + random.nextDouble() * (Math.log(2000) - Math.log(10))));
        List<RayNode> rayNodes = new ArrayList<>();
        Resources head = Resources.of("memory", String.valueOf(8 * GIB));
        rayNodes.add(new RayNode("head", "head", null, "headgroup", NodeStatus.RUNNING, head, head, 0, Map.of(), null, List.of()));
        int[] perGroup = new int[groups.size()];
        double[] capacity = new double[3];
        for (int n = 0; n < nodes; n++) {
            int g = random.nextInt(groups.size());
            WorkerGroup group = groups.get(g);
            perGroup[g]++;
            int eighths = random.nextInt(9);
            Resources available = scaled(group.resources(), eighths);
            rayNodes.add(new RayNode("node-" + n, group.name() + "-" + n, null, group.name(), eighths == 8 ? NodeStatus.IDLE : NodeStatus.RUNNING,
                    group.resources(), available, 0, group.labels(), null, List.of()));
            add(capacity, group.resources(), 1);
        }
        List<WorkerGroup> sized = new ArrayList<>();
        for (int g = 0; g < groups.size(); g++) {
            WorkerGroup group = groups.get(g);
            sized.add(new WorkerGroup(group.name(), g, perGroup[g], 0, perGroup[g] + 2_000, 1, group.resources(), group.labels(), List.of(),
                    null, false, List.of(), null, group.nodeCost()));
        }
        Demand demand = demand(random, capacity, groups.stream().anyMatch(group -> group.resources().get("GPU").units() > 0));
        return new ClusterSnapshot(ClusterSnapshot.SCHEMA_VERSION, "cost-" + seed, new ClusterRef("bench", "cost-" + seed, null), 1,
                Instant.parse("2026-11-30T00:00:00Z"), new SourceHealth(GcsSource.ok(1, "bench"), KubernetesSource.ok("1", 1)),
                new ScalingPolicy(UpscalingMode.DEFAULT, null, 60, null, Integer.MAX_VALUE, null, false, false),
                new HeadGroup("headgroup", head, Map.of()), sized, rayNodes, List.of(), demand);
    }

    private static List<WorkerGroup> types(Random random) {
        List<String[]> catalogue = new ArrayList<>(List.of(CATALOGUE));
        Collections.shuffle(catalogue, random);
        int count = 3 + random.nextInt(6);
        List<String[]> chosen = new ArrayList<>(catalogue.subList(0, count));
        if (chosen.stream().allMatch(type -> !type[2].equals("0"))) {
            chosen.set(0, CATALOGUE[random.nextInt(5)]);
        }
        List<WorkerGroup> groups = new ArrayList<>();
        for (String[] type : chosen) {
            long cpu = Long.parseLong(type[1]);
            long gpu = Long.parseLong(type[2]);
            long memoryGib = Long.parseLong(type[3]);
            Resources resources = gpu > 0 ? Resources.of("CPU", type[1], "GPU", type[2], "memory", String.valueOf(memoryGib * GIB))
                    : Resources.of("CPU", type[1], "memory", String.valueOf(memoryGib * GIB));
            BigDecimal list = BigDecimal.valueOf(cpu).add(BigDecimal.valueOf(memoryGib).multiply(new BigDecimal("0.125")))
                    .add(BigDecimal.valueOf(25 * gpu));
            BigDecimal price = list.multiply(BigDecimal.valueOf(70 + random.nextInt(61))).divide(BigDecimal.valueOf(100), 2, RoundingMode.HALF_EVEN);
            groups.add(new WorkerGroup(type[0], 0, 0, 0, 0, 1, resources, Map.of("zone", random.nextBoolean() ? "a" : "b"), List.of(), null,
                    false, List.of(), null, price));
        }
        return groups;
    }

    private static Demand demand(Random random, double[] capacity, boolean gpus) {
        // Between a quarter and twice what the existing nodes hold in total, so that most cases must open nodes.
        double scale = 0.25 + random.nextDouble() * 1.75;
        List<TaskDemand> tasks = new ArrayList<>();
        int shapes = 3 + random.nextInt(13);
        long cpuBudget = (long) (capacity[0] * scale);
        for (int s = 0; s < shapes; s++) {
            Resources shape = shape(random, gpus && random.nextInt(5) == 0);
            long cpu = Math.max(1, shape.get("CPU").units() / Quantity.SCALE);
            long count = Math.max(1, cpuBudget / shapes / cpu);
            List<LabelSelector> selectors = random.nextInt(10) == 0
                    ? List.of(new LabelSelector(List.of(new LabelConstraint("zone", LabelOperator.IN, List.of(random.nextBoolean() ? "a" : "b")))))
                    : List.of();
            tasks.add(new TaskDemand(shape, count, selectors));
        }
        List<GangDemand> gangs = new ArrayList<>();
        int gangCount = random.nextInt(21);
        for (int g = 0; g < gangCount; g++) {
            Resources bundle = shape(random, gpus && random.nextInt(4) == 0);
            int bundles = 2 + random.nextInt(5);
            gangs.add(new GangDemand(String.format("pg%03d", g), STRATEGIES[random.nextInt(STRATEGIES.length)], Collections.nCopies(bundles, bundle),
                    null));
        }
        List<ResourceConstraint> constraints = random.nextInt(4) == 0
                ? List.of(new ResourceConstraint(List.of(new ShapeCount(shape(random, false), 1 + random.nextInt(20))))) : List.of();
        return new Demand(tasks, gangs, constraints);
    }

    private static Resources shape(Random random, boolean gpu) {
        String[] cpus = {"0.5", "1", "2", "4", "8"};
        String cpu = cpus[random.nextInt(cpus.length)];
        String memory = String.valueOf((1L + random.nextInt(32)) * GIB);
        return gpu ? Resources.of("CPU", cpu, "GPU", String.valueOf(1 + random.nextInt(2)), "memory", memory)
                : Resources.of("CPU", cpu, "memory", memory);
    }

    private static Resources scaled(Resources total, int eighths) {
        Map<String, Quantity> amounts = new HashMap<>();
        total.asMap().forEach((kind, amount) -> amounts.put(kind, Quantity.ofUnits(amount.units() / 8 * eighths)));
        return Resources.of(amounts);
    }

    /** The kinds the bound counts, and the unit each is counted in. */
    static final String[] KINDS = {"CPU", "GPU", "memory"};
    private static final double[] UNITS = {Quantity.SCALE, Quantity.SCALE, (double) Quantity.SCALE * GIB};

    /** Adds {@code times} x {@code resources} to a (CPU, GPU, GiB of memory) vector. */
    static void add(double[] vector, Resources resources, double times) {
        for (int k = 0; k < KINDS.length; k++) {
            vector[k] += resources.get(KINDS[k]).units() / UNITS[k] * times;
        }
    }
}
