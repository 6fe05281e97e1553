package dev.rayscale.actuator;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** Everything the k8s actuator can be told, under {@code rayscale.actuator}. */
@ConfigMapping(prefix = "rayscale.actuator")
public interface ActuatorConfig {

    /** Do everything but patch RayClusters and drain Ray nodes: events and results only. */
    @WithDefault("false")
    boolean dryRun();
}
