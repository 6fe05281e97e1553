package dev.rayscale.actuator.core;

import java.time.Instant;
import java.util.Map;

/**
 * What this actuator last wrote to a cluster, and when. A decision made before that write, on the state the write
 * changed, is superseded by it: the normal course when a cluster's decisions queue up (the planner decides on every
 * snapshot until the first decision lands), told apart without reading the RayCluster and without a warning.
 *
 * @param decisionId the decision written
 * @param appliedAt when the write was answered, on the actuator's clock
 * @param after the RayCluster as the write left it
 * @param generation its {@code metadata.generation} after the write: any later change of its spec, by anyone, raises it
 *     (its status does not); null if the API server keeps none, and then nothing is written without a read
 * @param annotations its annotations after the write, all of them
 */
public record LastWrite(String decisionId, Instant appliedAt, ObservedCluster after, Long generation, Map<String, String> annotations) {

    public LastWrite {
        annotations = Map.copyOf(annotations);
    }
}
