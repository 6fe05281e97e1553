package dev.rayscale.planner.bench;

import dev.rayscale.events.ClusterSnapshot;
import dev.rayscale.events.DemandKind;
import dev.rayscale.events.GangDemand;
import dev.rayscale.events.GroupTarget;
import dev.rayscale.events.InfeasibleDemand;
import dev.rayscale.events.Packing;
import dev.rayscale.events.RayNode;
import dev.rayscale.events.Resources;
import dev.rayscale.events.ScaleDecision;
import dev.rayscale.events.TaskDemand;
import dev.rayscale.events.WorkerGroup;
import dev.rayscale.planner.core.Planner;
import dev.rayscale.planner.core.PlannerSettings;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.ToDoubleFunction;

/**
 * The packing cost benchmark: on generated clusters ({@link CostCases}), what the nodes each packing
 * opens cost, Ray's and economical, against a lower bound on any packing ({@link CoveringBound}).
 * Prints a table by cluster size and one last line:
 * {@code packing: cases=N ray_cost=A economical_cost=B lower_bound=C worse_than_ray=W}.
 *
 * <pre>java -cp planner-bench/target/benchmarks.jar dev.rayscale.planner.bench.PackingCost [--cases N] [--seed S]</pre>
 */
public final class PackingCost {

    /** One case's figures; costs are of the nodes the decision opens. */
    public record Case(long seed, int nodes, double rayCost, double economicalCost, double bound, boolean sameUnplaced, double rayMillis,
            double economicalMillis) {
    }

    /** Every case, and the cases where economical packing cost more than Ray's or left other demand unplaced. */
    public record Result(List<Case> cases, long worseThanRay, long unplacedDiffers) {

        double total(ToDoubleFunction<Case> figure) {
            return cases.stream().mapToDouble(figure).sum();
        }
    }

    private PackingCost() {
    }

    public static void main(String[] args) {
        int cases = 300;
        long seed = 1;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--cases" -> cases = Integer.parseInt(args[++i]);
                case "--seed" -> seed = Long.parseLong(args[++i]);
                default -> throw new IllegalArgumentException("unknown option " + args[i] + "; known: --cases N, --seed S");
            }
        }
        Result result = run(cases, seed);
        print(result, System.out);
        System.exit(result.worseThanRay() == 0 && result.unplacedDiffers() == 0 ? 0 : 1);
    }

    public static Result run(int count, long firstSeed) {
        Planner ray = new Planner(PlannerSettings.defaults("bench"));
        Planner economical = new Planner(PlannerSettings.defaults("bench").withPacking(Packing.ECONOMICAL));
        List<Case> cases = new ArrayList<>();
        for (long seed = firstSeed; seed < firstSeed + count; seed++) {
            ClusterSnapshot snapshot = CostCases.generate(seed);
            long start = System.nanoTime();
            ScaleDecision rays = ray.plan(snapshot);
            long middle = System.nanoTime();
            ScaleDecision cheaper = economical.plan(snapshot);
            long end = System.nanoTime();
            cases.add(new Case(seed, snapshot.nodes().size() - 1, openedCost(snapshot, rays), openedCost(snapshot, cheaper), bound(snapshot, rays),
                    unplaced(rays).equals(unplaced(cheaper)), (middle - start) / 1e6, (end - middle) / 1e6));
        }
        long worse = cases.stream().filter(c -> c.economicalCost() > c.rayCost() + 1e-9).count();
        long differs = cases.stream().filter(c -> !c.sameUnplaced()).count();
        return new Result(cases, worse, differs);
    }

    static void print(Result result, PrintStream out) {
        out.println("nodes       cases   Ray cost  economical  saved   lower bound  Ray/bound  economical/bound  plan ms (Ray, economical; median)");
        int[][] buckets = {{10, 99}, {100, 499}, {500, 2000}};
        for (int[] bucket : buckets) {
            List<Case> in = result.cases().stream().filter(c -> c.nodes() >= bucket[0] && c.nodes() <= bucket[1]).toList();
            if (!in.isEmpty()) {
                out.println(row(bucket[0] + "-" + bucket[1], in));
            }
        }
        out.println(row("all", result.cases()));
        long improved = result.cases().stream().filter(c -> c.economicalCost() < c.rayCost() - 1e-9).count();
        out.printf(Locale.ROOT, "economical packing cost less in %d of %d cases; more in %d; left other demand unplaced in %d%n", improved,
                result.cases().size(), result.worseThanRay(), result.unplacedDiffers());
        out.printf(Locale.ROOT, "packing: cases=%d ray_cost=%.0f economical_cost=%.0f lower_bound=%.0f worse_than_ray=%d%n", result.cases().size(),
                result.total(Case::rayCost), result.total(Case::economicalCost), result.total(Case::bound), result.worseThanRay());
    }

    private static String row(String label, List<Case> cases) {
        double ray = cases.stream().mapToDouble(Case::rayCost).sum();
        double cheaper = cases.stream().mapToDouble(Case::economicalCost).sum();
        double bound = cases.stream().mapToDouble(Case::bound).sum();
        return String.format(Locale.ROOT, "%-10s %6d %10.0f %11.0f %5.1f%% %13.0f %9.3f %17.3f   %.2f, %.2f", label, cases.size(), ray, cheaper,
                ray == 0 ? 0 : 100 * (ray - cheaper) / ray, bound, bound == 0 ? 1 : ray / bound, bound == 0 ? 1 : cheaper / bound,
                median(cases.stream().mapToDouble(Case::rayMillis).toArray()), median(cases.stream().mapToDouble(Case::economicalMillis).toArray()));
    }

    private static double median(double[] values) {
        Arrays.sort(values);
        return values.length == 0 ? 0 : values[values.length / 2];
    }

    /** What the nodes a decision adds cost. */
    static double openedCost(ClusterSnapshot snapshot, ScaleDecision decision) {
        double cost = 0;
        for (GroupTarget target : decision.groups()) {
            WorkerGroup group = snapshot.workerGroups().get(target.index());
            cost += Math.max(0, target.targetReplicas() - group.replicas()) * group.numOfHosts() * group.nodeCost().doubleValue();
        }
        return cost;
    }

    /** The lower bound for the demand {@code decision} placed. */
    static double bound(ClusterSnapshot snapshot, ScaleDecision decision) {
        double[] need = new double[CostCases.KINDS.length];
        Map<Resources, Long> unplacedTasks = new HashMap<>();
        Set<String> unplacedGangs = new HashSet<>();
        for (InfeasibleDemand infeasible : decision.infeasible()) {
            if (infeasible.kind() == DemandKind.TASK) {
                unplacedTasks.merge(infeasible.shape(), infeasible.count(), Long::sum);
            } else if (infeasible.kind() == DemandKind.GANG) {
                unplacedGangs.add(infeasible.gangId());
            }
        }
        Map<Resources, Long> asked = new HashMap<>();
        for (TaskDemand task : snapshot.demand().tasks()) {
            asked.merge(task.shape(), task.count(), Long::sum);
        }
        asked.forEach((shape, count) -> CostCases.add(need, shape, count - unplacedTasks.getOrDefault(shape, 0L)));
        for (GangDemand gang : snapshot.demand().gangs()) {
            if (!unplacedGangs.contains(gang.id())) {
                gang.bundles().forEach(bundle -> CostCases.add(need, bundle, 1));
            }
        }
        for (RayNode node : snapshot.nodes()) {
            CostCases.add(need, node.available(), -1);
        }
        List<WorkerGroup> groups = snapshot.workerGroups();
        double[][] capacity = new double[groups.size()][CostCases.KINDS.length];
        double[] cost = new double[groups.size()];
        for (int g = 0; g < groups.size(); g++) {
            CostCases.add(capacity[g], groups.get(g).resources(), 1);
            cost[g] = groups.get(g).nodeCost().doubleValue();
        }
        return CoveringBound.of(capacity, cost, need);
    }

    private static Map<String, Long> unplaced(ScaleDecision decision) {
        Map<String, Long> unplaced = new HashMap<>();
        for (InfeasibleDemand infeasible : decision.infeasible()) {
            String what = switch (infeasible.kind()) {
                case TASK -> String.valueOf(infeasible.shape());
                case GANG -> infeasible.gangId();
                case CONSTRAINT -> String.valueOf(infeasible.bundles());
            };
            unplaced.merge(infeasible.kind() + ":" + what, infeasible.count() == null ? 1 : infeasible.count(), Long::sum);
        }
        return unplaced;
    }
}
