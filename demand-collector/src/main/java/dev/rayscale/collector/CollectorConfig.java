package dev.rayscale.collector;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;

/** Everything the demand collector can be told, under {@code rayscale.collector}. */
@ConfigMapping(prefix = "rayscale.collector")
public interface CollectorConfig {

    /** A snapshot is published at least this often per cluster, so that idle timers advance. */
    @WithDefault("5s")
    Duration heartbeat();
}
