package dev.rayscale.tune;

import dev.rayscale.events.ActuationResult;
import dev.rayscale.events.Outcome;
import dev.rayscale.events.ScaleDecision;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * How long the recorded pipeline took from observing the cluster to patching it: each applied actuation's
 * {@code completedAt} against its decision's {@code decidedAt} (which is its snapshot's {@code observedAt}), in the
 * recording's seconds. A replay applies its decisions that much after each snapshot. Decisions and results may come in
 * either order (a broker's topics are read apart), so both are kept, boundedly, and joined when asked.
 */
final class ActuationLag {

    private static final int KEPT = 10_000;

    private record Applied(String decisionId, Instant completedAt) {
    }

    private final Map<String, Instant> decided = new HashMap<>();
    private final List<Applied> applied = new ArrayList<>();

    void decision(ScaleDecision decision) {
        if (decision.changesAnything() && decided.size() < KEPT) {
            decided.put(decision.id(), decision.decidedAt());
        }
    }

    void actuation(ActuationResult result) {
        if (result.outcome() == Outcome.APPLIED && !result.dryRun() && result.completedAt() != null && applied.size() < KEPT) {
            applied.add(new Applied(result.decisionId(), result.completedAt()));
        }
    }

    /** The median lag in the recording's seconds; 0 when the recording holds no applied decision with its result. */
    double seconds() {
        List<Double> lags = new ArrayList<>();
        for (Applied result : applied) {
            Instant at = decided.get(result.decisionId());
            if (at != null && !result.completedAt().isBefore(at)) {
                lags.add(Duration.between(at, result.completedAt()).toNanos() / 1e9);
            }
        }
        return Stats.median(lags);
    }
}
