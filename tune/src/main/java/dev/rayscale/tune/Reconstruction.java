package dev.rayscale.tune;

import dev.rayscale.sim.Workload;
import java.util.List;
import java.util.Map;

/**
 * The workload reconstructed from a recording: what the simulated cluster replays, and what it is made of.
 *
 * @param tasks tasks and placement groups submitted, seen pending or not
 * @param durations each key resource's work duration, in seconds
 * @param unseenStarts work that started without ever being seen pending (inferred from resources in use)
 */
record Reconstruction(Workload workload, long tasks, Map<String, Double> durations, long unseenStarts, List<String> notes) {
}
