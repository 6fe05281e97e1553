package dev.rayscale.planner.core;

import dev.rayscale.events.DeletionCause;
import dev.rayscale.events.PodDeletion;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * Groups a plan's pods into replicas: a multi-host replica is removed whole or not at all, and only
 * when every one of its hosts qualifies.
 */
final class Replicas {

    private Replicas() {
    }

    /** A replica's pods, in snapshot order. */
    record Replica(Group group, List<Node> hosts) {

        boolean all(Predicate<Node> condition) {
            return hosts.stream().allMatch(condition);
        }

        boolean complete() {
            return hosts.size() == group.hosts;
        }

        /** Marks every host removed and names its pod for deletion. */
        void remove(DeletionCause cause) {
            for (Node node : hosts) {
                node.removed = true;
                group.deletions.add(new PodDeletion(node.podName, node.nodeId, cause, cause == DeletionCause.IDLE ? node.idleMs : null));
            }
        }

        /** The shortest idle time among its hosts: a replica is as idle as its busiest host. */
        long idleMs() {
            return hosts.stream().mapToLong(node -> node.idleMs).min().orElse(0);
        }
    }

    /** The replicas of every worker group, from registered nodes and pods (not placeholders or new nodes). */
    static List<Replica> of(Plan plan) {
        Map<String, Replica> byName = new LinkedHashMap<>();
        for (List<Node> nodes : List.of(plan.running, plan.waiting)) {
            for (Node node : nodes) {
                if (node.group == null || node.podName == null) {
                    continue;
                }
                byName.computeIfAbsent(node.group.name + "/" + node.replicaName, name -> new Replica(node.group, new ArrayList<>()))
                        .hosts().add(node);
            }
        }
        return new ArrayList<>(byName.values());
    }
}
