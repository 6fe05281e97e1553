package dev.rayscale.planner.core;

import dev.rayscale.events.Packing;
import dev.rayscale.events.PlannerDefaults;
import java.time.Duration;
import java.util.Objects;

/**
 * The planner's own defaults, for what a snapshot's policy leaves open.
 *
 * @param decisionTtl how long a decision may be applied after its snapshot was observed
 * @param maxPendingLaunches cap on worker pods pending at once in one cluster (protects the API server
 *     and the operator); placement groups, request_resources and min replicas are not held to it
 * @param pendingPodPatience how long a worker pod may wait for a Kubernetes node before it is reported
 *     stuck (the cluster-autoscaler's own provisioning limit is 15 minutes)
 * @param version the planner version written into every decision
 * @param packing how demand is packed where a cluster does not say ({@code rayscale.dev/packing})
 */
public record PlannerSettings(Duration decisionTtl, int maxPendingLaunches, Duration pendingPodPatience, String version, Packing packing) {

    public static final Duration DEFAULT_DECISION_TTL = Duration.ofSeconds(30);
    public static final int DEFAULT_MAX_PENDING_LAUNCHES = 100;
    public static final Duration DEFAULT_PENDING_POD_PATIENCE = Duration.ofMinutes(15);

    public PlannerSettings {
        Objects.requireNonNull(decisionTtl, "decisionTtl");
        Objects.requireNonNull(pendingPodPatience, "pendingPodPatience");
        Objects.requireNonNull(version, "version");
        Objects.requireNonNull(packing, "packing");
        if (decisionTtl.isNegative() || decisionTtl.isZero()) {
            throw new IllegalArgumentException("decisionTtl must be positive");
        }
        if (maxPendingLaunches < 1) {
            throw new IllegalArgumentException("maxPendingLaunches must be at least 1");
        }
    }

    public static PlannerSettings defaults(String version) {
        return new PlannerSettings(DEFAULT_DECISION_TTL, DEFAULT_MAX_PENDING_LAUNCHES, DEFAULT_PENDING_POD_PATIENCE, version, Packing.RAY);
    }

    /** The settings as a decision records them: what a replay needs to plan with the same policy. */
    public PlannerDefaults recorded() {
        return new PlannerDefaults(decisionTtl.toMillis(), maxPendingLaunches, pendingPodPatience.toMillis(), packing);
    }

    /** The settings a decision recorded, planned by {@code version}. */
    public static PlannerSettings of(PlannerDefaults recorded, String version) {
        return new PlannerSettings(Duration.ofMillis(recorded.decisionTtlMillis()), recorded.maxPendingLaunches(),
                Duration.ofMillis(recorded.pendingPodPatienceMillis()), version, recorded.packing());
    }

    /** The same settings with {@code packing} as the default. */
    public PlannerSettings withPacking(Packing packing) {
        return new PlannerSettings(decisionTtl, maxPendingLaunches, pendingPodPatience, version, packing);
    }
}
