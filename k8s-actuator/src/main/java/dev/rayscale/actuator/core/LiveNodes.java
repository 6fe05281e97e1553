package dev.rayscale.actuator.core;

import java.util.List;
import java.util.Map;

/**
 * The Ray nodes a GCS read found alive, read right before drains and again after them.
 *
 * @param byPod the live nodes (hex ids) of each pod: one, normally; two while a restarted raylet's predecessor is not yet
 *     found dead (fact A4.19)
 * @param idleMs how long each live node had been idle, by node id; 0 for a node running work
 */
public record LiveNodes(Map<String, List<String>> byPod, Map<String, Long> idleMs) {

    public LiveNodes {
        byPod = Map.copyOf(byPod);
        idleMs = Map.copyOf(idleMs);
    }
}
