package dev.rayscale.actuator;

import dev.rayscale.events.ScaleDecision;
import io.ray.v1.RayCluster;
import java.util.Map;

/**
 * The newest decision applied to a cluster, kept on the RayCluster itself (two annotations written in
 * the same patch as the change), so that it survives restarts and needs no database.
 */
record AppliedMark(long sequence, String decisionId) {

    static final String SEQUENCE = "rayscale.dev/last-applied-sequence";
    static final String DECISION = "rayscale.dev/last-applied-decision";
    static final AppliedMark NONE = new AppliedMark(-1, "");

    static AppliedMark of(RayCluster cluster) {
        Map<String, String> annotations = cluster.getMetadata().getAnnotations();
        if (annotations == null || !annotations.containsKey(SEQUENCE)) {
            return NONE;
        }
        try {
            return new AppliedMark(Long.parseLong(annotations.get(SEQUENCE)), annotations.getOrDefault(DECISION, ""));
        } catch (NumberFormatException corrupt) {
            return NONE;
        }
    }

    static AppliedMark of(ScaleDecision decision) {
        return new AppliedMark(decision.snapshotSequence(), decision.id());
    }
}
