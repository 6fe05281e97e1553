package dev.rayscale.actuator.core;

import dev.rayscale.events.Annotations;
import dev.rayscale.events.ScaleDecision;
import java.util.Map;

/**
 * The newest decision applied to a cluster, kept on the RayCluster itself (two annotations written in
 * the same patch as the change), so that it survives restarts and needs no database.
 *
 * @param present whether the annotations exist (a patch can test their value only if they do)
 */
public record AppliedMark(long sequence, String decisionId, boolean present) {

    public static final String SEQUENCE = Annotations.LAST_APPLIED_SEQUENCE;
    public static final String DECISION = Annotations.LAST_APPLIED_DECISION;
    public static final AppliedMark NONE = new AppliedMark(-1, "", false);

    /** The mark in a RayCluster's annotations; a corrupt one reads as none. */
    public static AppliedMark of(Map<String, String> annotations) {
        if (annotations == null || !annotations.containsKey(SEQUENCE)) {
            return NONE;
        }
        try {
            return new AppliedMark(Long.parseLong(annotations.get(SEQUENCE)), annotations.getOrDefault(DECISION, ""), true);
        } catch (NumberFormatException corrupt) {
            return NONE;
        }
    }

    public static AppliedMark of(ScaleDecision decision) {
        return new AppliedMark(decision.snapshotSequence(), decision.id(), true);
    }

    public boolean names(ScaleDecision decision) {
        return sequence == decision.snapshotSequence() && decisionId.equals(decision.id());
    }
}
