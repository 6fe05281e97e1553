package dev.rayscale.planner;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;

/** Everything the scaling planner can be told, under {@code rayscale.planner}. */
@ConfigMapping(prefix = "rayscale.planner")
public interface PlannerConfig {

    /** How long a decision stays valid after its snapshot was observed; the actuator drops it after that. */
    @WithDefault("30s")
    Duration decisionTtl();
}
