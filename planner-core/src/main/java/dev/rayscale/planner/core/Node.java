package dev.rayscale.planner.core;

import java.util.Map;

/**
 * One Ray node as the plan sees it: a registered node, a pod still waiting for its node, a replica
 * the RayCluster already asks for but whose pod does not exist yet, or a node this plan adds.
 * Mutable: packing takes resources from it.
 */
final class Node {

    enum Origin {
        /** Registered with Ray and accepting work. */
        RUNNING,
        /** A pod that exists but has not registered yet. */
        PENDING_POD,
        /** Asked for by the RayCluster's replicas, no pod yet. */
        LAUNCHING,
        /** Added by this plan. */
        NEW
    }

    final Origin origin;
    /** The worker group, or null for the head and for nodes of groups no longer in the spec. */
    final Group group;
    final long[] total;
    /** What tasks and placement groups may still use. */
    final long[] available;
    /** What {@code request_resources} may still use: constraints count against total capacity. */
    final long[] unclaimed;
    final Map<String, String> labels;
    final String podName;
    final String nodeId;
    final String replicaName;
    final boolean reportedIdle;
    final long idleMs;

    /** Demand of this plan was placed here (tasks or placement groups): not removable as idle. */
    boolean holdsDemand;
    /** A request_resources bundle was counted here: not removable as idle. */
    boolean holdsConstraint;
    /** Chosen for removal by this plan, or, for a node this plan added, given up again. */
    boolean removed;
    /** For a node this plan added: why. */
    Group.Need openedFor;
    /** Its pod has a second live Ray node (a raylet restarted there): not removable until the GCS settles. */
    boolean inFlux;
    /** The last gang that placed a bundle here; a strict-spread gang places at most one per node. */
    int lastGang = -1;
    /** Per resource kind, how many requests placed here ask for it, by pool: Ray scores a node by the kinds placed on it. */
    private final int[][] placedKinds = new int[Pool.values().length][];
    /** Bumped whenever what is free here changes, so that {@link #exhausted} is worked out once per change. */
    private int version = 1;
    private final int[] exhaustedAt = new int[Pool.values().length];
    private final boolean[] exhausted = new boolean[Pool.values().length];

    Node(Origin origin, Group group, long[] total, long[] available, Map<String, String> labels,
            String podName, String nodeId, String replicaName, boolean reportedIdle, long idleMs) {
        this.origin = origin;
        this.group = group;
        this.total = total;
        this.available = available;
        this.unclaimed = total.clone();
        this.labels = labels;
        this.podName = podName;
        this.nodeId = nodeId;
        this.replicaName = replicaName;
        this.reportedIdle = reportedIdle;
        this.idleMs = idleMs;
    }

    static Node empty(Origin origin, Group group) {
        return new Node(origin, group, group.nodeResources.clone(), group.nodeResources.clone(), group.labels,
                null, null, null, false, 0);
    }

    boolean isRegistered() {
        return origin == Origin.RUNNING;
    }

    long[] pool(Pool pool) {
        return pool == Pool.DEMAND ? available : unclaimed;
    }

    /** The resource kinds that requests placed here ask for (a fresh array). */
    boolean[] placedKinds(Pool pool) {
        boolean[] kinds = new boolean[total.length];
        int[] counts = placedKinds[pool.ordinal()];
        if (counts != null) {
            for (int kind = 0; kind < counts.length; kind++) {
                kinds[kind] = counts[kind] > 0;
            }
        }
        return kinds;
    }

    private BestNodeFit.State state;
    private int stateAt;
    private Pool statePool;
    private boolean stateWithLabels;

    /** What placement sees of this node, worked out once per change. */
    BestNodeFit.State placementState(Pool pool, boolean withLabels) {
        if (state == null || stateAt != version || statePool != pool || stateWithLabels != withLabels) {
            state = new BestNodeFit.State(this, pool, withLabels);
            stateAt = version;
            statePool = pool;
            stateWithLabels = withLabels;
        }
        return state;
    }

    /** True if none of {@code shapes} fits in what the pool has free here. */
    boolean exhausted(Pool pool, Shape[] shapes) {
        int p = pool.ordinal();
        if (exhaustedAt[p] != version) {
            exhausted[p] = true;
            for (Shape shape : shapes) {
                if (shape.fitsIn(pool(pool))) {
                    exhausted[p] = false;
                    break;
                }
            }
            exhaustedAt[p] = version;
        }
        return exhausted[p];
    }

    /** Counts {@code shape}'s kinds as placed here ({@code +1}) or no longer ({@code -1}). */
    void countKinds(Pool pool, Shape shape, int change) {
        version++;
        int[] counts = placedKinds[pool.ordinal()];
        if (counts == null) {
            counts = placedKinds[pool.ordinal()] = new int[total.length];
        }
        for (int kind : shape.kinds) {
            counts[kind] += change;
        }
    }

    void markUsed(Pool pool) {
        if (pool == Pool.DEMAND) {
            holdsDemand = true;
        } else {
            holdsConstraint = true;
        }
    }

}
