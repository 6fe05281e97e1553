package dev.rayscale.planner.core;

import dev.rayscale.events.GangDemand;
import dev.rayscale.events.InfeasibleDemand;
import dev.rayscale.events.InfeasibleReason;
import dev.rayscale.events.LabelConstraint;
import dev.rayscale.events.LabelSelector;
import dev.rayscale.events.PlacementStrategy;
import dev.rayscale.events.Resources;
import dev.rayscale.events.ShapeCount;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Placement groups, each all or nothing, in Ray's order: those with more placement constraints
 * first, then those with more bundles (ties by id, so that input order does not matter).
 * STRICT_PACK is one merged bundle on one node; STRICT_SPREAD puts every bundle on a different node;
 * PACK fills nodes in turn; SPREAD uses distinct nodes among those that exist and packs the rest. A bundle that selects
 * labels ({@code bundle_label_selector}, fact D52) goes only where its first satisfiable selector matches, as a task does;
 * a STRICT_PACK group's one node must match every bundle's.
 */
final class GangPlacement {

    private static final Comparator<GangDemand> RAY_ORDER = Comparator
            .comparingInt(GangPlacement::constraints).reversed()
            .thenComparing(Comparator.comparingInt((GangDemand gang) -> gang.bundles().size()).reversed())
            .thenComparing(GangDemand::id);

    private GangPlacement() {
    }

    static void apply(Plan plan, Packer packer) {
        List<GangDemand> gangs = new ArrayList<>(plan.snapshot.demand().gangs());
        gangs.sort(RAY_ORDER);
        for (int number = 0; number < gangs.size(); number++) {
            GangDemand gang = gangs.get(number);
            List<LabelSelector> selectors = selectors(plan, gang);
            if (selectors.contains(LabelChoice.UNMATCHABLE)) {
                plan.infeasible.add(InfeasibleDemand.gang(gang.id(), bundles(gang), InfeasibleReason.LABELS_UNMATCHED,
                        "no node or worker group matches the label selectors of a bundle: " + gang.bundleLabelSelectors()));
                continue;
            }
            Ledger ledger = new Ledger(Pool.DEMAND);
            List<Request> requests = requests(plan, gang, selectors, number);
            place(gang.strategy(), requests, packer, ledger);
            Request left = ledger.commitIfComplete(plan, requests);
            if (left == null) {
                continue;
            }
            Infeasibility.Why why = Infeasibility.of(plan, left.shape, left.selector);
            plan.infeasible.add(InfeasibleDemand.gang(gang.id(), bundles(gang), why.reason(),
                    gang.strategy() + " placement group of " + gang.bundles().size() + " bundle(s) cannot be placed whole: " + why.detail()));
        }
    }

    private static void place(PlacementStrategy strategy, List<Request> requests, Packer packer, Ledger ledger) {
        if (strategy == PlacementStrategy.SPREAD) {
            packer.placeOnKnownNodes(requests, ledger);
            List<Request> rest = Requests.unspread(requests);
            packer.placeOnKnownNodes(rest, ledger);
            packer.openNodes(rest, Group.Need.GANGS, ledger);
            Requests.settle(requests, rest);
            return;
        }
        packer.placeOnKnownNodes(requests, ledger);
        packer.openNodes(requests, Group.Need.GANGS, ledger);
    }

    private static List<Request> requests(Plan plan, GangDemand gang, List<LabelSelector> selectors, int number) {
        return switch (gang.strategy()) {
            case STRICT_PACK -> new Requests(plan, -1)
                    .add(gang.bundles().stream().reduce(Resources.NONE, Resources::plus), 1, all(selectors)).sorted();
            case STRICT_SPREAD, SPREAD -> bundleRequests(plan, gang, selectors, number);
            case PACK -> bundleRequests(plan, gang, selectors, -1);
        };
    }

    private static List<Request> bundleRequests(Plan plan, GangDemand gang, List<LabelSelector> selectors, int spreadGang) {
        Requests requests = new Requests(plan, spreadGang);
        for (int i = 0; i < gang.bundles().size(); i++) {
            requests.add(gang.bundles().get(i), 1, selectors.get(i));
        }
        return requests.sorted();
    }

    /** Each bundle's selector to apply (null for none), or {@link LabelChoice#UNMATCHABLE}. */
    private static List<LabelSelector> selectors(Plan plan, GangDemand gang) {
        List<LabelSelector> chosen = new ArrayList<>();
        for (int i = 0; i < gang.bundles().size(); i++) {
            chosen.add(LabelChoice.select(plan, gang.selectorsOf(i)));
        }
        return chosen;
    }

    /** One selector asking all of {@code selectors}: the one node of a STRICT_PACK group holds every bundle; null if none asks anything. */
    private static LabelSelector all(List<LabelSelector> selectors) {
        List<LabelConstraint> constraints = selectors.stream().filter(Objects::nonNull).flatMap(selector -> selector.constraints().stream())
                .distinct().toList();
        return constraints.isEmpty() ? null : new LabelSelector(constraints);
    }

    /** Bundles of Ray's placement constraints: STRICT_PACK and STRICT_SPREAD carry one per bundle. */
    private static int constraints(GangDemand gang) {
        return gang.strategy() == PlacementStrategy.STRICT_PACK || gang.strategy() == PlacementStrategy.STRICT_SPREAD
                ? gang.bundles().size() : 0;
    }

    private static List<ShapeCount> bundles(GangDemand gang) {
        Map<Resources, Long> counts = new LinkedHashMap<>();
        gang.bundles().forEach(bundle -> counts.merge(bundle, 1L, Long::sum));
        return counts.entrySet().stream().map(entry -> new ShapeCount(entry.getKey(), entry.getValue())).toList();
    }
}
