package dev.rayscale.planner.core;

import dev.rayscale.events.Resources;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Bin-packing as Ray v2's autoscaler does it. Requests go, in Ray's order (largest first), onto the
 * nodes that exist and the nodes on their way, the best-scoring node first ({@link BestNodeFit}); what
 * is left opens new nodes, one replica at a time, of the group whose fresh node Ray's score ranks best
 * for the remaining requests (ties go to the group listed first in the RayCluster).
 *
 * <p>Requests are kept grouped by shape: placing {@code n} copies of a shape costs one division per
 * resource kind, not {@code n} steps. Opening new nodes is batched: while the remaining counts are
 * large enough that no candidate's fresh-node fill depends on them, every next node would be chosen
 * and filled identically, so a run of them is opened at once. The result equals opening them one
 * by one.
 */
final class Packer {

    private final Plan plan;
    private final int gpu;
    /** Per pool, the demand's smallest shapes: a node none of them fits takes nothing more in this plan. */
    private final Shape[][] smallest;
    /** Per pool, the known nodes in list order that may still take something, and how many added nodes they include. */
    @SuppressWarnings("unchecked")
    private final List<Node>[] roomy = new List[Pool.values().length];
    private final int[] addedSeen = new int[Pool.values().length];

    Packer(Plan plan) {
        this.plan = plan;
        this.gpu = plan.index.gpu();
        this.smallest = new Shape[Pool.values().length][];
        List<Resources> demand = new ArrayList<>();
        plan.snapshot.demand().tasks().forEach(task -> demand.add(task.shape()));
        plan.snapshot.demand().gangs().forEach(gang -> demand.addAll(gang.bundles()));
        smallest[Pool.DEMAND.ordinal()] = smallest(demand);
        List<Resources> claims = new ArrayList<>();
        plan.snapshot.demand().constraints().forEach(constraint -> constraint.bundles().forEach(bundle -> claims.add(bundle.shape())));
        smallest[Pool.CONSTRAINT.ordinal()] = smallest(claims);
    }

    /** Places what it can of {@code requests} onto the nodes that exist and the nodes on their way, as Ray v2 does. */
    void placeOnKnownNodes(List<Request> requests, Ledger ledger) {
        BestNodeFit.place(requests, roomyNodes(ledger), ledger, gpu);
    }

    /**
     * The known nodes, in list order, that could take a copy of some demand. What is free on a node only
     * shrinks once committed, so a node found exhausted between trials is dropped for good; scanning every
     * node for every placement group would cost more than placing it.
     */
    private List<Node> roomyNodes(Ledger ledger) {
        int p = ledger.pool().ordinal();
        List<Node> nodes = roomy[p];
        if (nodes == null) {
            nodes = new ArrayList<>(plan.running);
            nodes.addAll(plan.waiting);
            roomy[p] = nodes;
            addedSeen[p] = plan.added.size();
        }
        for (; addedSeen[p] < plan.added.size(); addedSeen[p]++) {
            nodes.add(plan.added.get(addedSeen[p]));
        }
        boolean settled = ledger.isEmpty();
        List<Node> known = new ArrayList<>(nodes.size());
        int kept = 0;
        for (int i = 0; i < nodes.size(); i++) {
            Node node = nodes.get(i);
            boolean exhausted = node.removed || node.exhausted(ledger.pool(), smallest[p]);
            if (!exhausted) {
                known.add(node);
            }
            if (!exhausted || !settled) {
                nodes.set(kept++, node);
            }
        }
        nodes.subList(kept, nodes.size()).clear();
        return known;
    }

    /** The shapes no other shape fits inside: whatever fits none of them fits no shape at all. */
    private Shape[] smallest(List<Resources> shapes) {
        List<Shape> distinct = shapes.stream().distinct().map(shape -> new Shape(plan.index.vector(shape), plan.index)).toList();
        List<Shape> minimal = new ArrayList<>();
        for (int i = 0; i < distinct.size(); i++) {
            Shape shape = distinct.get(i);
            boolean covered = false;
            for (int j = 0; j < distinct.size() && !covered; j++) {
                Shape other = distinct.get(j);
                // A shape that fits inside another covers it; of two equal vectors, the first listed stays.
                covered = j != i && other.fitsIn(shape.amounts) && (j < i || !shape.fitsIn(other.amounts));
            }
            if (!covered) {
                minimal.add(shape);
            }
        }
        return minimal.toArray(Shape[]::new);
    }

    /** As {@link #placeOnKnownNodes(List, Ledger)}, onto {@code nodes} only. */
    void placeOn(List<Request> requests, List<Node> nodes, Ledger ledger) {
        BestNodeFit.place(requests, nodes, ledger, gpu);
    }

    /** Opens one replica of {@code group} for tasks, fills it with {@code requests}, and returns its nodes. */
    List<Node> openFilled(Group group, List<Request> requests, Ledger ledger) {
        List<Node> hosts = plan.open(group, Group.Need.TASKS);
        ledger.opened(group, Group.Need.TASKS, hosts.size());
        fill(requests, hosts, ledger);
        return hosts;
    }

    /** Fills the hosts of a replica just opened, in turn. */
    private static void fill(List<Request> requests, List<Node> nodes, Ledger ledger) {
        for (Request request : requests) {
            for (int i = 0; i < nodes.size() && request.count > 0; i++) {
                Node node = nodes.get(i);
                if (!request.allows(node)) {
                    continue;
                }
                long copies = Math.min(request.perNodeLimit(), request.shape.fitCount(node.pool(ledger.pool())));
                if (copies > 0) {
                    place(request, node, copies, ledger);
                }
            }
        }
    }

    /** Opens new replicas until the requests are placed or no group can take any of them. */
    void openNodes(List<Request> requests, Group.Need need, Ledger ledger) {
        openNodes(requests, need, ledger, null, null);
    }

    /**
     * As {@link #openNodes(List, Group.Need, Ledger)}, with launches beyond {@code limit} deferred: the
     * requests a deferred replica would hold are counted in {@code deferred} (per request) and taken
     * off, and its room under maxReplicas stays taken, but no node is made for it.
     */
    void openNodes(List<Request> all, Group.Need need, Ledger ledger, UpscalingLimit limit, long[] deferred) {
        // What no group's fresh node can hold is left as it is (infeasible): trying it for every node opened cost a pass
        // over tens of thousands of such shapes per node in a cluster that large.
        int[] at = placeableAt(all);
        List<Request> requests = new ArrayList<>(at.length);
        for (int i : at) {
            requests.add(all.get(i));
        }
        boolean batchable = all.stream().allMatch(request -> request.spreadGang < 0);
        long[] floor = floor(requests, plan.index.size());
        while (anyLeft(requests)) {
            Candidate best = null;
            List<Candidate> candidates = new ArrayList<>();
            for (Group group : plan.groups) {
                if (plan.room(group) < 1) {
                    continue;
                }
                Candidate candidate = Candidate.evaluate(group, requests, floor, gpu, plan.index.size());
                if (candidate == null) {
                    continue;
                }
                candidates.add(candidate);
                if (best == null || candidate.score.compareTo(best.score) > 0) {
                    best = candidate;
                }
            }
            if (best == null) {
                break;
            }
            int replicas = batchable && best.group.hosts == 1 ? batchSize(best, candidates, requests) : 1;
            int granted = limit == null ? replicas : limit.grant(best.group, replicas);
            if (granted < replicas) {
                defer(best, replicas - granted, requests, deferred, at);
            }
            for (int r = 0; r < granted; r++) {
                List<Node> hosts = plan.open(best.group, need);
                ledger.opened(best.group, need, hosts.size());
                fill(requests, hosts, ledger);
            }
        }
    }

    /**
     * How many replicas of the best group can be opened in a row with the same fill: as long as every
     * candidate's fill stays saturated (limited by node size, not by the remaining counts), the scores
     * and the choice cannot change.
     */
    private int batchSize(Candidate best, List<Candidate> candidates, List<Request> requests) {
        for (Candidate candidate : candidates) {
            if (!candidate.saturated) {
                return 1;
            }
        }
        long replicas = plan.room(best.group);
        for (int i : best.placedAt) {
            long perReplica = best.placed[i];
            long largestFill = 0;
            for (Candidate candidate : candidates) {
                largestFill = Math.max(largestFill, candidate.placed[i]);
            }
            replicas = Math.min(replicas, (requests.get(i).count - largestFill) / perReplica + 1);
        }
        return (int) Math.max(1, replicas);
    }

    /** Takes off the requests a deferred replica would hold; {@code deferred} is by the positions {@code at} gives. */
    private static void defer(Candidate best, int replicas, List<Request> requests, long[] deferred, int[] at) {
        best.group.deferredReplicas += replicas;
        for (int i : best.placedAt) {
            long copies = Math.min(requests.get(i).count, best.placed[i] * replicas);
            requests.get(i).count -= copies;
            deferred[at[i]] += copies;
        }
    }

    /** The positions of the requests a fresh node of some group could hold a copy of. */
    private int[] placeableAt(List<Request> requests) {
        int[] at = new int[requests.size()];
        int placeable = 0;
        for (int i = 0; i < requests.size(); i++) {
            Request request = requests.get(i);
            for (Group group : plan.groups) {
                if (request.allows(group) && request.shape.fitCount(group.nodeResources) > 0) {
                    at[placeable++] = i;
                    break;
                }
            }
        }
        return Arrays.copyOf(at, placeable);
    }

    static void place(Request request, Node node, long copies, Ledger ledger) {
        ledger.took(node, request, copies);
        request.count -= copies;
        if (request.spreadGang >= 0) {
            node.lastGang = request.spreadGang;
        }
    }

    static boolean anyLeft(List<Request> requests) {
        for (Request request : requests) {
            if (request.count > 0) {
                return true;
            }
        }
        return false;
    }

    /**
     * Per resource kind, the least any of {@code requests} asks of it (0 when one asks none): a node with less than that
     * of some kind can take none of them. Filling a fresh node stops there instead of trying every remaining request,
     * which for tens of thousands of distinct shapes cost a pass over all of them for every node opened.
     */
    private static long[] floor(List<Request> requests, int kinds) {
        long[] floor = new long[kinds];
        Arrays.fill(floor, Long.MAX_VALUE);
        for (Request request : requests) {
            for (int kind = 0; kind < kinds; kind++) {
                floor[kind] = Math.min(floor[kind], kind < request.shape.amounts.length ? request.shape.amounts[kind] : 0);
            }
        }
        return floor;
    }

    private static boolean belowFloor(long[] available, long[] floor) {
        for (int kind = 0; kind < floor.length; kind++) {
            if (floor[kind] > 0 && available[kind] < floor[kind]) {
                return true;
            }
        }
        return false;
    }

    /**
     * A fresh node of one group, filled greedily with the remaining requests, and its score.
     *
     * @param placed copies per request, by the requests' positions
     * @param placedAt the positions with copies, in order
     */
    private record Candidate(Group group, long[] placed, int[] placedAt, Score score, boolean saturated) {

        static Candidate evaluate(Group group, List<Request> requests, long[] floor, int gpu, int kinds) {
            long[] available = group.nodeResources.clone();
            long[] placed = new long[requests.size()];
            int[] placedAt = new int[8];
            int placements = 0;
            boolean[] requestedKinds = new boolean[kinds];
            boolean gpuRequested = false;
            boolean saturated = true;
            boolean any = false;
            int spreadPlaced = -1;
            for (int i = 0; i < placed.length; i++) {
                Request request = requests.get(i);
                if (request.count <= 0 || !request.allows(group) || request.spreadGang >= 0 && request.spreadGang == spreadPlaced) {
                    continue;
                }
                long room = request.spreadGang < 0 ? request.shape.fitCount(available) : Math.min(1, request.shape.fitCount(available));
                long copies = Math.min(request.count, room);
                if (copies <= 0) {
                    continue;
                }
                if (room > request.count) {
                    saturated = false;
                }
                request.shape.take(available, copies);
                placed[i] = copies;
                if (placements == placedAt.length) {
                    placedAt = Arrays.copyOf(placedAt, placements * 2);
                }
                placedAt[placements++] = i;
                if (request.spreadGang >= 0) {
                    spreadPlaced = request.spreadGang;
                }
                any = true;
                for (int kind : request.shape.kinds) {
                    requestedKinds[kind] = true;
                }
                gpuRequested |= request.shape.needs(gpu);
                if (belowFloor(available, floor)) {
                    break;
                }
            }
            if (!any) {
                return null;
            }
            return new Candidate(group, placed, Arrays.copyOf(placedAt, placements),
                    Score.of(group.nodeResources, available, requestedKinds, gpuRequested, gpu), saturated);
        }
    }
}
