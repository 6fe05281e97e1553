package dev.rayscale.actuator.core;

import dev.rayscale.events.ScaleDecision;
import java.time.Duration;
import java.time.Instant;

/**
 * Which decisions the actuator takes in at all. Whoever can write to the decisions topic can resize clusters, so a decision
 * the planner cannot have made is refused before it reaches a cluster:
 * <ul>
 *   <li>one without the RayCluster's uid, which is what keeps a decision off a cluster re-created under the same name;</li>
 *   <li>one from a snapshot beyond the newest the collector can have made by now. The collector numbers a cluster's
 *       snapshots by its clock in milliseconds (one more when two fall in the same millisecond), so a sequence far ahead
 *       of the clock is forged; applied, its mark would make every later decision of the cluster superseded, for good.</li>
 * </ul>
 */
public final class Admission {

    /** How far the collector's clock may run ahead of the actuator's. */
    public static final Duration CLOCK_ALLOWANCE = Duration.ofMinutes(10);

    private Admission() {
    }

    /** Why {@code decision} is refused at {@code now}, or null when it is taken in. */
    public static String refusal(ScaleDecision decision, Instant now) {
        if (decision.cluster().uid() == null) {
            return "decision " + decision.id() + " names no RayCluster uid: without it a decision could be applied to a cluster "
                    + "re-created under the same name; the planner always writes it";
        }
        long newestPossible = now.plus(CLOCK_ALLOWANCE).toEpochMilli();
        if (decision.snapshotSequence() > newestPossible) {
            return "decision " + decision.id() + " is from snapshot " + decision.snapshotSequence() + ", beyond the newest the collector "
                    + "can have made by now (" + newestPossible + ", its clock in milliseconds with " + CLOCK_ALLOWANCE.toMinutes()
                    + " minutes' allowance): not made by Rayscale's planner";
        }
        return null;
    }
}
