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
    /** Chosen for removal by this plan. */
    boolean removed;
    /** Its pod has a second live Ray node (a raylet restarted there): not removable until the GCS settles. */
    boolean inFlux;
    /** The last gang that placed a bundle here; a strict-spread gang places at most one per node. */
    int lastGang = -1;

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

    void markUsed(Pool pool) {
        if (pool == Pool.DEMAND) {
            holdsDemand = true;
        } else {
            holdsConstraint = true;
        }
    }

}
