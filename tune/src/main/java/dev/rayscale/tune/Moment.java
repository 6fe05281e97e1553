package dev.rayscale.tune;

import dev.rayscale.events.GangDemand;
import dev.rayscale.events.ResourceConstraint;
import java.util.List;
import java.util.Map;

/**
 * What one snapshot says, as much as a reconstruction and the figures read: the time in the recording's own seconds
 * from its first snapshot, pending work by kind, placement groups pending by id, resources in use, the
 * {@code request_resources} floor, worker pods per group and each group's replicas. Pending work keeps the order the GCS
 * listed it in, which is the order it was submitted in: a replay submits it so.
 *
 * @param rayState false when the GCS could not be read: then only the Kubernetes side is known
 * @param newPods worker pods seen for the first time
 */
record Moment(double at, boolean rayState, Map<DemandKey, Long> pending, Map<String, GangDemand> gangs, Map<String, Double> used,
        List<ResourceConstraint> constraints, Map<String, Integer> workers, Map<String, Integer> replicas, int newPods) {
}
