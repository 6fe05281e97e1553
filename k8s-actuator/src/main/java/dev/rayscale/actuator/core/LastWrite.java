package dev.rayscale.actuator.core;

import java.time.Instant;

/**
 * What this actuator last wrote to a cluster, and when. A decision made before that write, on the state the write
 * changed, is superseded by it: the normal course when a cluster's decisions queue up (the planner decides on every
 * snapshot until the first decision lands), told apart without reading the RayCluster and without a warning.
 *
 * @param decisionId the decision written
 * @param appliedAt when the write was answered, on the actuator's clock
 * @param after the RayCluster as the write left it
 */
public record LastWrite(String decisionId, Instant appliedAt, ObservedCluster after) {
}
