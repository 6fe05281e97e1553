package dev.rayscale.events;

import java.util.Map;

/**
 * The annotations on a RayCluster that are part of Rayscale's contract: what opts a cluster in, and
 * the applied-decision mark the actuator writes with every patch (the collector reads it too, so that
 * snapshot sequences never fall behind a decision already applied).
 */
public final class Annotations {

    /** {@code "enabled"} opts the cluster in. */
    public static final String AUTOSCALING = "rayscale.dev/autoscaling";
    public static final String AUTOSCALING_ENABLED = "enabled";
    /** The snapshot sequence of the newest decision applied to the cluster. */
    public static final String LAST_APPLIED_SEQUENCE = "rayscale.dev/last-applied-sequence";
    /** The id of that decision. */
    public static final String LAST_APPLIED_DECISION = "rayscale.dev/last-applied-decision";

    private Annotations() {
    }

    /** Whether a RayCluster with these annotations (null when it has none) has opted in. */
    public static boolean optedIn(Map<String, String> annotations) {
        return annotations != null && AUTOSCALING_ENABLED.equals(annotations.get(AUTOSCALING));
    }
}
