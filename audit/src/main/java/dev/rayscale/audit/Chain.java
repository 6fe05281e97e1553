package dev.rayscale.audit;

import dev.rayscale.events.ActuationResult;
import dev.rayscale.events.ClusterSnapshot;
import dev.rayscale.events.ScaleDecision;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * One decision's chain: the snapshot it answered, the decision, and what the actuator did with it.
 *
 * @param snapshotDigest what the snapshot showed, or null when it is not in the recording
 * @param waitingTasks the tasks and actors waiting in that snapshot, -1 when unknown
 * @param snapshot the whole snapshot, kept only when asked for ({@code audit --decision})
 * @param decidedAt when the decision was written (its record's time); the decision's own {@code decidedAt}
 *     is its snapshot's observation time
 * @param results in the order they came; empty when none came
 */
public record Chain(String cluster, String snapshotDigest, long waitingTasks, ClusterSnapshot snapshot, ScaleDecision decision, Instant decidedAt,
        List<ActuationResult> results) {

    public ActuationResult result() {
        return results.isEmpty() ? null : results.get(0);
    }

    /** Observed (by the collector) to decided (written by the planner). */
    public Duration toDecide() {
        return Duration.between(decision.decidedAt(), decidedAt);
    }

    /** Decided to taken up by the actuator, or null without a result. */
    public Duration toReceive() {
        return result() == null ? null : Duration.between(decidedAt, result().receivedAt());
    }

    /** Taken up to settled (the patch applied, or the outcome known), or null without a result. */
    public Duration toApply() {
        return result() == null ? null : Duration.between(result().receivedAt(), result().completedAt());
    }
}
