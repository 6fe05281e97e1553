package dev.rayscale.planner.core;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a placement took and opened, so that an all-or-nothing request (a placement group, a
 * request_resources constraint) can be committed as a whole or rolled back without a trace.
 */
final class Ledger {

    private record Take(Node node, Request request, long copies) {
    }

    /** Copies of one request placed on a node. */
    record Held(Request request, long copies) {
    }

    private record Opened(Group group, Group.Need need, int nodes) {
    }

    private final Pool pool;
    private final List<Take> takes = new ArrayList<>();
    private final List<Opened> opened = new ArrayList<>();

    Ledger(Pool pool) {
        this.pool = pool;
    }

    Pool pool() {
        return pool;
    }

    void took(Node node, Request request, long copies) {
        request.shape.take(node.pool(pool), copies);
        node.countKinds(pool, request.shape, 1);
        takes.add(new Take(node, request, copies));
    }

    /** What each node took since the last commit, in the order taken. */
    Map<Node, List<Held>> holdings() {
        Map<Node, List<Held>> held = new LinkedHashMap<>();
        for (Take take : takes) {
            held.computeIfAbsent(take.node, node -> new ArrayList<>()).add(new Held(take.request, take.copies));
        }
        return held;
    }

    void opened(Group group, Group.Need need, int nodes) {
        opened.add(new Opened(group, need, nodes));
    }

    /** Keeps everything: the nodes that took a share now hold demand (or a constraint). */
    /** True if nothing was taken or opened since the last commit or rollback. */
    boolean isEmpty() {
        return takes.isEmpty() && opened.isEmpty();
    }

    void commit() {
        takes.forEach(take -> take.node.markUsed(pool));
        takes.clear();
        opened.clear();
    }

    /**
     * All or nothing: commits if every request was placed, else rolls back.
     *
     * @return the first request left unplaced, or null if all were placed (and committed)
     */
    Request commitIfComplete(Plan plan, List<Request> requests) {
        for (Request request : requests) {
            if (request.count > 0) {
                rollback(plan);
                return request;
            }
        }
        commit();
        return null;
    }

    /** Undoes everything since the last commit, newest first. */
    void rollback(Plan plan) {
        for (int i = takes.size() - 1; i >= 0; i--) {
            Take take = takes.get(i);
            take.request.shape.giveBack(take.node.pool(pool), take.copies);
            take.node.countKinds(pool, take.request.shape, -1);
        }
        for (int i = opened.size() - 1; i >= 0; i--) {
            Opened replica = opened.get(i);
            for (int n = 0; n < replica.nodes; n++) {
                plan.waiting.remove(plan.waiting.size() - 1).removed = true;
            }
            replica.group.add(replica.need, -1);
        }
        takes.clear();
        opened.clear();
    }
}
