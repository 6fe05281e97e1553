package dev.rayscale.planner.core;

import dev.rayscale.events.ReasonCode;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Beyond Ray: after Ray's greedy packing of the tasks, each node it opened for them, the most
 * expensive first ({@link NodeCost}), is given up if what it holds fits on the other nodes opened for
 * them and kept; else what does not fit there goes onto fresh nodes of the cheapest type whose nodes
 * together cost less than the one given up. A change is kept only whole: every piece of demand stays
 * placed, on nodes its label selectors allow, within maxReplicas, the worker cap and the upscaling
 * limit. Nodes that hold placement-group bundles or request_resources claims, and multi-host
 * replicas, are left as they are, so no placement strategy can be broken. The plan never costs more
 * than Ray's.
 */
final class EconomicalPacking {

    private EconomicalPacking() {
    }

    /** {@code nodes} fresh nodes of {@code group}. */
    private record Replacement(Group group, int nodes) {
    }

    /**
     * @param requests the task requests of the plan, for their shapes: a node with room for none of them can take nothing
     */
    static void apply(Plan plan, Packer packer, Ledger ledger, UpscalingLimit limit, List<Request> requests) {
        Map<Node, List<Ledger.Held>> holdings = ledger.holdings();
        List<Node> opened = new ArrayList<>();
        for (Node node : plan.waiting) {
            if (node.origin == Node.Origin.NEW && node.openedFor == Group.Need.TASKS && node.group.hosts == 1 && holdings.containsKey(node)) {
                opened.add(node);
            }
        }
        BigDecimal before = opened.stream().map(node -> plan.cost(node.group)).reduce(BigDecimal.ZERO, BigDecimal::add);
        // The most expensive first; of equals, the last opened first: Ray filled it with what was left, so it holds least.
        Map<Node, Integer> openedAt = new IdentityHashMap<>();
        opened.forEach(node -> openedAt.put(node, openedAt.size()));
        List<Node> candidates = new ArrayList<>(opened);
        candidates.sort(Comparator.comparing((Node node) -> plan.cost(node.group)).reversed()
                .thenComparing(Comparator.comparingInt((Node node) -> openedAt.get(node)).reversed()));
        Map<String, Integer> givenUp = new TreeMap<>();
        Map<String, Integer> replaced = new TreeMap<>();
        BigDecimal saved = BigDecimal.ZERO;
        // Only the nodes opened for these tasks can take any: Ray opened them because no node known before could hold a
        // single more copy, and nothing since has freed room there. Of those, only the ones with room for some task shape.
        List<Node> roomy = new ArrayList<>(opened);
        roomy.removeIf(node -> !roomFor(requests, node));
        // A node like one that could be neither given up nor replaced since the last change cannot be either: tried once.
        Set<List<Object>> hopeless = new HashSet<>();
        for (Node node : candidates) {
            List<Object> likeness = likeness(node, holdings.get(node));
            if (hopeless.contains(likeness)) {
                continue;
            }
            Ledger trial = new Ledger(Pool.DEMAND);
            List<Request> pieces = pieces(holdings.get(node));
            List<Node> others = new ArrayList<>(roomy);
            others.removeIf(other -> other == node || !roomFor(pieces, other));
            packer.placeOn(pieces, others, trial);
            if (!Packer.anyLeft(pieces)) {
                roomy.remove(node);
                giveUp(plan, node);
                keep(trial, holdings, roomy, requests);
                hopeless.clear();
                givenUp.merge(node.group.name, 1, Integer::sum);
                saved = saved.add(plan.cost(node.group));
                continue;
            }
            Replacement replacement = cheaperReplacement(plan, node.group, pieces, limit);
            if (replacement == null) {
                trial.rollback(plan);
                hopeless.add(likeness);
                continue;
            }
            giveUp(plan, node);
            limit.grant(replacement.group, replacement.nodes);
            for (int n = 0; n < replacement.nodes; n++) {
                roomy.addAll(packer.openFilled(replacement.group, pieces, trial));
            }
            roomy.remove(node);
            keep(trial, holdings, roomy, requests);
            hopeless.clear();
            replaced.merge(node.group.name + " by " + replacement.nodes + " " + replacement.group.name, 1, Integer::sum);
            saved = saved.add(plan.cost(node.group)).subtract(plan.cost(replacement.group).multiply(BigDecimal.valueOf(replacement.nodes)));
        }
        if (saved.signum() > 0) {
            plan.because(ReasonCode.ECONOMICAL_PACKING, "economical packing: the new nodes cost " + plain(before) + " as Ray packs them, " + plain(before.subtract(saved))
                    + (givenUp.isEmpty() ? "" : "; not needed, their tasks fit on the other nodes: " + describe(givenUp))
                    + (replaced.isEmpty() ? "" : "; replaced by cheaper nodes: " + describe(replaced)));
        }
    }

    /**
     * The cheapest way to hold {@code pieces} on fresh nodes of one type that costs less than a node of
     * {@code group} and may be launched now; null if there is none.
     */
    private static Replacement cheaperReplacement(Plan plan, Group group, List<Request> pieces, UpscalingLimit limit) {
        Replacement best = null;
        BigDecimal bestCost = plan.cost(group);
        for (Group candidate : plan.groups) {
            if (candidate.hosts != 1 || candidate == group) {
                continue;
            }
            int nodes = nodesToHold(candidate, pieces);
            BigDecimal cost = plan.cost(candidate).multiply(BigDecimal.valueOf(nodes));
            if (nodes > 0 && cost.compareTo(bestCost) < 0 && plan.room(candidate) >= nodes && limit.grantable(candidate) >= nodes) {
                best = new Replacement(candidate, nodes);
                bestCost = cost;
            }
        }
        return best;
    }

    /** How many fresh nodes of {@code group}, each filled in turn, hold every piece; 0 if they cannot. */
    private static int nodesToHold(Group group, List<Request> pieces) {
        long[] left = new long[pieces.size()];
        for (int i = 0; i < left.length; i++) {
            left[i] = pieces.get(i).count;
            if (left[i] > 0 && (!pieces.get(i).allows(group) || !pieces.get(i).shape.fitsIn(group.nodeResources))) {
                return 0;
            }
        }
        int nodes = 0;
        boolean anyLeft = Arrays.stream(left).anyMatch(count -> count > 0);
        while (anyLeft) {
            long[] free = group.nodeResources.clone();
            anyLeft = false;
            for (int i = 0; i < left.length; i++) {
                long copies = Math.min(left[i], pieces.get(i).shape.fitCount(free));
                pieces.get(i).shape.take(free, copies);
                left[i] -= copies;
                anyLeft |= left[i] > 0;
            }
            nodes++;
        }
        return nodes;
    }

    private static boolean roomFor(List<Request> requests, Node node) {
        for (Request request : requests) {
            if (request.allows(node) && request.shape.fitsIn(node.available)) {
                return true;
            }
        }
        return false;
    }

    /** What decides whether a node can be given up or replaced: its group, and what it holds. */
    private static List<Object> likeness(Node node, List<Ledger.Held> held) {
        List<Object> likeness = new ArrayList<>();
        likeness.add(node.group);
        for (Ledger.Held piece : held) {
            likeness.add(piece.request().shape);
            likeness.add(String.valueOf(piece.request().selector));
            likeness.add(piece.copies());
        }
        return likeness;
    }

    /** What a node holds, as requests of their own, in Ray's order. */
    private static List<Request> pieces(List<Ledger.Held> held) {
        List<Request> pieces = new ArrayList<>();
        for (Ledger.Held piece : held) {
            pieces.add(new Request(piece.request().shape, piece.copies(), piece.request().selector, -1));
        }
        pieces.sort(Comparator.comparing((Request request) -> request.shape, Shape.RAY_ORDER));
        return pieces;
    }

    private static void giveUp(Plan plan, Node node) {
        plan.waiting.remove(node);
        node.removed = true;
        node.group.add(Group.Need.TASKS, -1);
    }

    /**
     * Commits a trial and records what it moved, so that a node given up later carries what it received;
     * a node the move filled up leaves {@code roomy}.
     */
    private static void keep(Ledger trial, Map<Node, List<Ledger.Held>> holdings, List<Node> roomy, List<Request> requests) {
        trial.holdings().forEach((node, held) -> {
            holdings.computeIfAbsent(node, n -> new ArrayList<>()).addAll(held);
            if (!roomFor(requests, node)) {
                roomy.remove(node);
            }
        });
        trial.commit();
    }

    private static String plain(BigDecimal amount) {
        return amount.stripTrailingZeros().toPlainString();
    }

    private static String describe(Map<String, Integer> counts) {
        return String.join(", ", counts.entrySet().stream().map(entry -> entry.getValue() + " " + entry.getKey()).toList());
    }
}
