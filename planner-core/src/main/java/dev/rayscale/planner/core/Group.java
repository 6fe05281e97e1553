package dev.rayscale.planner.core;

import dev.rayscale.events.PodDeletion;
import dev.rayscale.events.WorkerGroup;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** One worker group during a plan: what it has, what it may have, and what the plan adds or removes. */
final class Group {

    final WorkerGroup spec;
    final String name;
    final int hosts;
    final long[] nodeResources;
    final Map<String, String> labels;
    final long idleTimeoutMs;

    /** Worker pods that exist (registered or not) and are not named for deletion. */
    int liveNodes;
    /** Of those, the ones registered with Ray. */
    int registeredNodes;
    /** Pods named in workersToDelete that still exist: the operator has not finished. */
    boolean deletionInProgress;
    /** The group's pods being deleted and not named in workersToDelete: the operator still counts them (fact B6.28). */
    int terminatingUnnamed;
    /**
     * Replicas that packing would open beyond the upscaling limits: they hold room under maxReplicas
     * while tasks are packed, as if opened, but no node is made for them and they are never asked for.
     */
    int deferredReplicas;

    private final int[] addedBy = new int[Need.values().length];
    /** Replicas removed below the group's size (idle, cluster cap). */
    int removedReplicas;
    /** Replicas removed only to come down to maxReplicas; the size already stops at max. */
    int removedOverMax;
    final List<PodDeletion> deletions = new ArrayList<>();
    final List<String> notes = new ArrayList<>();

    Group(WorkerGroup spec, long[] nodeResources, long idleTimeoutMs) {
        this.spec = spec;
        this.name = spec.name();
        this.hosts = spec.numOfHosts();
        this.nodeResources = nodeResources;
        this.labels = spec.labels();
        this.idleTimeoutMs = idleTimeoutMs;
    }

    /** Why a replica is added; only TASKS are subject to the upscaling speed. */
    enum Need {
        MIN_REPLICAS,
        CONSTRAINTS,
        GANGS,
        TASKS
    }

    boolean suspended() {
        return spec.suspended();
    }

    /** The operator cannot create this group's pods (a quota, an admission webhook): asking for more brings nothing. */
    boolean launchFailing() {
        return spec.launchFailure() != null;
    }

    int min() {
        return spec.minReplicas();
    }

    int max() {
        return spec.maxReplicas();
    }

    /** The replicas the operator works towards: {@code clamp(replicas, min, max)}. */
    int requestedReplicas() {
        return Math.max(min(), Math.min(max(), spec.replicas()));
    }

    /** Replicas that exist or are asked for, before this plan. */
    int currentSize() {
        return Math.max(requestedReplicas(), ceilDiv(liveNodes, hosts));
    }

    /** Replicas asked for whose pods the operator cannot create. */
    int failedReplicas() {
        return launchFailing() && !suspended() ? ceilDiv(missingPods(), hosts) : 0;
    }

    /**
     * Ray nodes asked for whose pods do not exist yet: capacity on its way, unless the group is suspended
     * (the operator deletes its pods, fact B7.31) or its pods cannot be created (B9.34).
     */
    int launchingNodes() {
        return suspended() || launchFailing() ? 0 : missingPods();
    }

    /** Pods the operator should create and has not. */
    int missingPods() {
        return Math.max(0, requestedReplicas() * hosts - liveNodes);
    }

    /** The replicas this plan ends with. */
    int plannedSize() {
        return Math.min(currentSize(), max()) + added() - removedReplicas;
    }

    int added() {
        int sum = 0;
        for (int count : addedBy) {
            sum += count;
        }
        return sum;
    }

    int added(Need need) {
        return addedBy[need.ordinal()];
    }

    void add(Need need, int replicas) {
        addedBy[need.ordinal()] += replicas;
    }

    /** Replicas the plan may still add within maxReplicas. */
    int room() {
        return suspended() || launchFailing() ? 0 : Math.max(0, max() - plannedSize() - deferredReplicas);
    }

    /**
     * The fewest replicas the group may be set to: never below its pods that will still exist and are
     * not named for deletion, or the operator would delete pods of its own choosing, in list order,
     * busy or not (facts B6.27, B6.28). Above maxReplicas it cannot help: the operator clamps first.
     */
    int floorReplicas() {
        int pods = liveNodes + terminatingUnnamed - deletions.size();
        return Math.min(max(), ceilDiv(Math.max(0, pods), hosts));
    }

    /** Nodes (pods) this group counts towards a cluster-wide cap, deferred replicas included while packing. */
    int plannedNodes() {
        return Math.max(0, plannedSize() + deferredReplicas) * hosts;
    }

    /** Pods waiting to become Ray nodes, before this plan. */
    int pendingNodes() {
        return liveNodes - registeredNodes + launchingNodes();
    }

    private static int ceilDiv(int a, int b) {
        return (a + b - 1) / b;
    }
}
