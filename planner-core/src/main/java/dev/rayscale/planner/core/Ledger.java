package dev.rayscale.planner.core;

import java.util.ArrayList;
import java.util.List;

/**
 * What a placement took and opened, so that an all-or-nothing request (a placement group, a
 * request_resources constraint) can be committed as a whole or rolled back without a trace.
 */
final class Ledger {

    private record Take(Node node, Shape shape, long copies) {
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

    void took(Node node, Shape shape, long copies) {
        shape.take(node.pool(pool), copies);
        takes.add(new Take(node, shape, copies));
    }

    void opened(Group group, Group.Need need, int nodes) {
        opened.add(new Opened(group, need, nodes));
    }

    /** Keeps everything: the nodes that took a share now hold demand (or a constraint). */
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
            take.shape.giveBack(take.node.pool(pool), take.copies);
        }
        for (int i = opened.size() - 1; i >= 0; i--) {
            Opened replica = opened.get(i);
            for (int n = 0; n < replica.nodes; n++) {
                plan.waiting.remove(plan.waiting.size() - 1);
            }
            replica.group.add(replica.need, -1);
        }
        takes.clear();
        opened.clear();
    }
}
