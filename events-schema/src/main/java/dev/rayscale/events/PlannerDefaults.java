package dev.rayscale.events;

/**
 * The planner's defaults for what a cluster's policy leaves open, as recorded with each decision:
 * together with the snapshot, everything the planner read.
 *
 * @param decisionTtlMillis how long a decision may be applied after its snapshot was observed
 * @param maxPendingLaunches cap on worker pods pending at once per cluster
 * @param pendingPodPatienceMillis how long a worker pod may wait for a node before it is reported stuck
 * @param packing how demand is packed where a cluster does not say
 */
public record PlannerDefaults(long decisionTtlMillis, int maxPendingLaunches, long pendingPodPatienceMillis, Packing packing) {

    public PlannerDefaults {
        if (decisionTtlMillis <= 0) {
            throw new IllegalArgumentException("planner.defaults.decisionTtlMillis must be positive, was " + decisionTtlMillis);
        }
        if (maxPendingLaunches < 1) {
            throw new IllegalArgumentException("planner.defaults.maxPendingLaunches must be at least 1, was " + maxPendingLaunches);
        }
        Fields.notNegative(pendingPodPatienceMillis, "planner.defaults.pendingPodPatienceMillis");
        Fields.required(packing, "planner.defaults.packing");
    }
}
