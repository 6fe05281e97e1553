package dev.rayscale.actuator;

import dev.rayscale.actuator.core.LastWrite;
import dev.rayscale.events.ScaleDecision;
import java.time.Clock;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * This actuator's last write to each cluster ({@link LastWrite}), in memory only: a new process, or the member a
 * partition moves to, knows none and reads the RayCluster, as before. One entry per cluster written to, small (the
 * groups as written); a cluster found deleted is forgotten.
 */
final class LastWrites {

    private final Map<String, LastWrite> byCluster = new ConcurrentHashMap<>();
    private final Clock clock;

    LastWrites(Clock clock) {
        this.clock = clock;
    }

    /** {@code decision} was written, leaving the RayCluster as {@code written} shows it; now. */
    void wrote(ScaleDecision decision, ClusterApi.Observation written) {
        Map<String, String> annotations = written.cluster().getMetadata().getAnnotations();
        byCluster.put(decision.cluster().id(), new LastWrite(decision.id(), clock.instant(), written.view(),
                written.cluster().getMetadata().getGeneration(), annotations == null ? Map.of() : annotations));
    }

    /** The last write to the decision's cluster, or null. */
    LastWrite to(ScaleDecision decision) {
        return byCluster.get(decision.cluster().id());
    }

    void forget(ScaleDecision decision) {
        byCluster.remove(decision.cluster().id());
    }
}
