package dev.rayscale.planner;

import dev.rayscale.events.Packing;
import dev.rayscale.planner.core.PlannerSettings;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;

/**
 * Everything the scaling planner can be told, under {@code rayscale.planner}. A cluster's own policy
 * (from its RayCluster, carried by each snapshot) overrides these defaults where it says something.
 */
@ConfigMapping(prefix = "rayscale.planner")
public interface PlannerConfig {

    /** How long a decision may be applied after its snapshot was observed; the actuator drops it after that. */
    @WithDefault("30s")
    Duration decisionTtl();

    /**
     * At most this many worker pods pending at once per cluster, unless the cluster says otherwise.
     * Protects the API server and the operator; minReplicas, placement groups and request_resources
     * are not held to it.
     */
    @WithDefault("100")
    int maxPendingLaunches();

    /** How long a worker pod may wait for a Kubernetes node before it is reported stuck. */
    @WithDefault("15m")
    Duration pendingPodPatience();

    /** The planner version written into decisions (so that a replay can tell code changes apart). */
    @WithDefault("${quarkus.application.version:dev}")
    String version();

    /**
     * How demand is packed where a cluster does not say ({@code rayscale.dev/packing}): {@code ray}, as Ray v2
     * does, or {@code economical}, which then gives up or swaps newly opened nodes where that costs less.
     */
    @WithDefault("ray")
    Packing packing();

    default PlannerSettings settings() {
        return new PlannerSettings(decisionTtl(), maxPendingLaunches(), pendingPodPatience(), version(), packing());
    }
}
