package dev.rayscale.planner.core;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rayscale.events.Quantity;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * {@link BestNodeFit} tries each distinct node state once and keeps tries until they go stale; Ray tries
 * every node after every choice. On thousands of generated clusters both must choose the same nodes and
 * leave every node and request exactly as the other does.
 */
class BestNodeFitTest {

    private static final ResourceIndex INDEX = new ResourceIndex(new TreeSet<>(List.of("CPU", "GPU", "memory")));
    private static final long[][] TYPES = {{4, 0, 16}, {16, 0, 64}, {8, 1, 32}, {32, 4, 128}};

    @Test
    void choosesAsRayDoesTryingEveryNodeAfterEveryChoice() {
        for (long seed = 0; seed < 3000; seed++) {
            Cluster fast = Cluster.generate(new Random(seed));
            Cluster ray = Cluster.generate(new Random(seed));

            BestNodeFit.place(fast.requests, fast.nodes, new Ledger(Pool.DEMAND), INDEX.gpu());
            rayV2(ray.requests, ray.nodes, INDEX.gpu());

            for (int n = 0; n < fast.nodes.size(); n++) {
                assertThat(fast.nodes.get(n).available).as("seed %d, node %d", seed, n).containsExactly(ray.nodes.get(n).available);
                assertThat(fast.nodes.get(n).lastGang).as("seed %d, node %d", seed, n).isEqualTo(ray.nodes.get(n).lastGang);
            }
            for (int r = 0; r < fast.requests.size(); r++) {
                assertThat(fast.requests.get(r).count).as("seed %d, request %d", seed, r).isEqualTo(ray.requests.get(r).count);
            }
        }
    }

    @Test
    void placesNothingWhereNothingFitsAndLeavesTheRequestsAsTheyWere() {
        Node full = node(0, new long[] {0, 0, 0});
        Request request = new Request(shape(1, 0, 1), 5, null, -1);

        BestNodeFit.place(List.of(request), List.of(full), new Ledger(Pool.DEMAND), INDEX.gpu());

        assertThat(request.count).isEqualTo(5);
        assertThat(full.available).containsExactly(0, 0, 0);
    }

    /** Ray's loop as written: every node not yet chosen is tried with everything left; the best try wins, ties to the first listed. */
    private static void rayV2(List<Request> requests, List<Node> nodes, int gpu) {
        List<Node> open = new ArrayList<>(nodes);
        while (Packer.anyLeft(requests) && !open.isEmpty()) {
            Node best = null;
            long[] bestTook = null;
            Score bestScore = null;
            for (Node node : open) {
                long[] free = node.available.clone();
                boolean[] kinds = node.placedKinds(Pool.DEMAND);
                long[] took = new long[requests.size()];
                boolean any = false;
                int spreadPlaced = -1;
                for (int i = 0; i < requests.size(); i++) {
                    Request request = requests.get(i);
                    if (request.count <= 0 || !request.allows(node) || request.spreadGang >= 0 && request.spreadGang == spreadPlaced) {
                        continue;
                    }
                    // One copy at a time, as Ray's try_schedule walks its (ungrouped) request list.
                    while (took[i] < request.perNodeLimit() && request.shape.fitsIn(free)) {
                        request.shape.take(free, 1);
                        took[i]++;
                        any = true;
                        for (int kind : request.shape.kinds) {
                            kinds[kind] = true;
                        }
                        if (request.spreadGang >= 0) {
                            spreadPlaced = request.spreadGang;
                            break;
                        }
                    }
                }
                if (!any) {
                    continue;
                }
                Score score = Score.of(node.total, free, kinds, gpu >= 0 && kinds[gpu], gpu);
                if (best == null || score.compareTo(bestScore) > 0) {
                    best = node;
                    bestTook = took;
                    bestScore = score;
                }
            }
            if (best == null) {
                return;
            }
            Ledger ledger = new Ledger(Pool.DEMAND);
            for (int i = 0; i < bestTook.length; i++) {
                if (bestTook[i] > 0) {
                    Packer.place(requests.get(i), best, bestTook[i], ledger);
                }
            }
            open.remove(best);
        }
    }

    private record Cluster(List<Node> nodes, List<Request> requests) {

        /** A few node types at a few fill levels (so that many nodes share a state), some with kinds already placed. */
        static Cluster generate(Random random) {
            List<Node> nodes = new ArrayList<>();
            int count = 1 + random.nextInt(40);
            for (int n = 0; n < count; n++) {
                int type = random.nextInt(TYPES.length);
                long[] total = scaled(TYPES[type]);
                long[] free = total.clone();
                int eighths = random.nextInt(5) == 0 ? random.nextInt(8) : 8;
                for (int k = 0; k < free.length; k++) {
                    free[k] = free[k] / 8 * eighths;
                }
                Node node = node(type, free);
                if (random.nextInt(6) == 0) {
                    node.countKinds(Pool.DEMAND, shape(1, random.nextInt(2), 0), 1);
                }
                nodes.add(node);
            }
            List<Request> requests = new ArrayList<>();
            int shapes = 1 + random.nextInt(5);
            for (int s = 0; s < shapes; s++) {
                boolean spread = random.nextInt(8) == 0;
                requests.add(new Request(shape(1 + random.nextInt(8), random.nextInt(4) == 0 ? 1 : 0, random.nextInt(16)),
                        spread ? 1 + random.nextInt(4) : 1 + random.nextInt(60), null, spread ? 7 : -1));
            }
            requests.sort((a, b) -> Shape.RAY_ORDER.compare(a.shape, b.shape));
            return new Cluster(nodes, requests);
        }
    }

    private static Node node(int type, long[] free) {
        long[] total = scaled(TYPES[type]);
        return new Node(Node.Origin.RUNNING, null, total, free, Map.of(), "pod", "id", "pod", false, 0);
    }

    private static Shape shape(long cpu, long gpu, long memory) {
        return new Shape(scaled(new long[] {cpu, gpu, memory}), INDEX);
    }

    private static long[] scaled(long[] units) {
        long[] scaled = new long[units.length];
        for (int k = 0; k < units.length; k++) {
            scaled[k] = units[k] * Quantity.SCALE;
        }
        return scaled;
    }
}
