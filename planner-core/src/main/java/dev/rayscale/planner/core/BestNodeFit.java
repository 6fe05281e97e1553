package dev.rayscale.planner.core;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Ray v2's placement onto the nodes that exist or are on their way ({@code _try_schedule} and
 * {@code _sched_best_node} in Ray's {@code autoscaler/v2/scheduler.py}): every node is tried with all
 * the remaining requests, greedily in Ray's order; the node whose try scores best ({@link Score}, with
 * the kinds already placed on it counted) keeps what it took and leaves the candidates; the others are
 * tried again with what is left, until no node can take anything. Ties go to the node listed first.
 *
 * <p>Ray tries every node again after every choice. Here nodes in the same state (the same total and
 * free resources, the same kinds placed, the same labels where a selector looks at them) are tried
 * once for all of them, and a try is kept until a choice lowers a request below what the try placed
 * of it: only then could the try come out differently. The choices are Ray's; the work per choice
 * grows with the number of distinct node states, not with the number of nodes.
 */
final class BestNodeFit {

    private BestNodeFit() {
    }

    static void place(List<Request> requests, List<Node> nodes, Ledger ledger, int gpu) {
        if (!Packer.anyLeft(requests)) {
            return;
        }
        List<Twins> candidates = twins(requests, nodes, ledger.pool());
        for (Iterator<Twins> it = candidates.iterator(); it.hasNext(); ) {
            if (!it.next().tryOn(requests, ledger.pool(), gpu)) {
                it.remove();
            }
        }
        while (Packer.anyLeft(requests)) {
            Twins best = null;
            for (Twins twins : candidates) {
                if (best == null || twins.beats(best)) {
                    best = twins;
                }
            }
            if (best == null) {
                return;
            }
            long[] took = best.placed;
            Node chosen = best.takeFirst();
            for (int i = 0; i < took.length; i++) {
                if (took[i] > 0) {
                    Packer.place(requests.get(i), chosen, took[i], ledger);
                }
            }
            // A node where nothing fits now never will: counts only go down, and its free resources do not change.
            candidates.removeIf(twins -> twins.isEmpty() || twins.reliedOnMore(requests) && !twins.tryOn(requests, ledger.pool(), gpu));
        }
    }

    /** The candidate nodes by state, each state's nodes in list order. */
    private static List<Twins> twins(List<Request> requests, List<Node> nodes, Pool pool) {
        boolean labelsMatter = requests.stream().anyMatch(request -> request.selector != null);
        Map<State, Twins> byState = new HashMap<>();
        List<Twins> inOrder = new ArrayList<>();
        for (int position = 0; position < nodes.size(); position++) {
            Node node = nodes.get(position);
            if (node.removed || !takesAny(requests, node, pool)) {
                continue;
            }
            Twins twins = byState.get(node.placementState(pool, labelsMatter));
            if (twins == null) {
                twins = new Twins();
                byState.put(node.placementState(pool, labelsMatter), twins);
                inOrder.add(twins);
            }
            twins.add(node, position);
        }
        return inOrder;
    }

    /** Whether a node could take a copy of any request: most nodes of a busy cluster cannot, and are never tried. */
    private static boolean takesAny(List<Request> requests, Node node, Pool pool) {
        long[] free = node.pool(pool);
        for (Request request : requests) {
            if (request.count > 0 && request.shape.fitsIn(free) && request.allows(node)) {
                return true;
            }
        }
        return false;
    }

    /** Nodes in one state: tried once for all of them. */
    private static final class Twins {

        /** In list order, with where each is listed. */
        private final ArrayDeque<Node> members = new ArrayDeque<>();
        private final ArrayDeque<Integer> positions = new ArrayDeque<>();
        long[] placed;
        Score score;

        void add(Node node, int position) {
            members.add(node);
            positions.add(position);
        }

        Node takeFirst() {
            positions.removeFirst();
            return members.removeFirst();
        }

        boolean isEmpty() {
            return members.isEmpty();
        }

        /** Fills a copy of one member greedily; false if nothing fits. */
        boolean tryOn(List<Request> requests, Pool pool, int gpu) {
            Node node = members.getFirst();
            long[] free = node.pool(pool).clone();
            boolean[] kinds = node.placedKinds(pool);
            long[] took = new long[requests.size()];
            boolean any = false;
            int spreadPlaced = -1;
            for (int i = 0; i < took.length; i++) {
                Request request = requests.get(i);
                if (request.count <= 0 || !request.allows(node) || request.spreadGang >= 0 && request.spreadGang == spreadPlaced) {
                    continue;
                }
                long copies = Math.min(request.perNodeLimit(), request.shape.fitCount(free));
                if (copies <= 0) {
                    continue;
                }
                request.shape.take(free, copies);
                took[i] = copies;
                any = true;
                for (int kind : request.shape.kinds) {
                    kinds[kind] = true;
                }
                if (request.spreadGang >= 0) {
                    spreadPlaced = request.spreadGang;
                }
            }
            placed = took;
            score = any ? Score.of(node.total, free, kinds, gpu >= 0 && kinds[gpu], gpu) : null;
            return any;
        }

        /** True if a request is now below what the last try placed of it. */
        boolean reliedOnMore(List<Request> requests) {
            for (int i = 0; i < placed.length; i++) {
                if (placed[i] > requests.get(i).count) {
                    return true;
                }
            }
            return false;
        }

        boolean beats(Twins other) {
            int byScore = score.compareTo(other.score);
            return byScore > 0 || byScore == 0 && position() < other.position();
        }

        private int position() {
            return positions.getFirst();
        }
    }

    /** What placement sees of a node: nodes with equal states take the same. */
    static final class State {

        private final long[] total;
        private final long[] free;
        private final boolean[] kinds;
        private final int lastGang;
        private final Map<String, String> labels;
        private final int hash;

        State(Node node, Pool pool, boolean labelsMatter) {
            this.total = node.total;
            this.free = node.pool(pool);
            this.kinds = node.placedKinds(pool);
            this.lastGang = node.lastGang;
            this.labels = labelsMatter ? node.labels : null;
            this.hash = Objects.hash(Arrays.hashCode(total), Arrays.hashCode(free), Arrays.hashCode(kinds), lastGang, labels);
        }

        @Override
        public boolean equals(Object other) {
            return other instanceof State state && hash == state.hash && lastGang == state.lastGang && Arrays.equals(total, state.total)
                    && Arrays.equals(free, state.free) && Arrays.equals(kinds, state.kinds) && Objects.equals(labels, state.labels);
        }

        @Override
        public int hashCode() {
            return hash;
        }
    }
}
