package dev.rayscale.collector.assembly;

import io.ray.v1.RayCluster;
import java.time.Duration;
import java.time.Instant;

/**
 * How long KubeRay has not acted on a RayCluster's spec. Every KubeRay reconcile that gets as far as the status sets
 * {@code status.observedGeneration} to {@code metadata.generation} ({@code calculateStatus}, KubeRay 1.0 to today); from
 * 1.3, a spec its validation refuses ({@code utils.ValidateRayClusterSpec}: min above max, a negative bound,
 * {@code RAY_enable_autoscaler_v2} without in-tree autoscaling...) ends the reconcile before that, with a Warning Event
 * {@code InvalidRayClusterSpec} and no requeue, and writes no status at all ({@code raycluster_controller.go}
 * {@code rayClusterReconcile}). So a generation that stays ahead of the observed one is a spec KubeRay does not act on —
 * or an operator that is not running: either way, replicas written now change nothing.
 *
 * @param observed the {@code status.observedGeneration} KubeRay last wrote
 * @param generation the spec's generation now
 * @param since when KubeRay was first seen behind at {@code observed}: a later spec change does not restart the count
 */
public record SpecLag(long observed, long generation, Instant since) {

    /** The lag after reading {@code cluster} at {@code now}: null when KubeRay is up to date, or says nothing of it. */
    public static SpecLag of(SpecLag before, RayCluster cluster, Instant now) {
        Long generation = cluster.getMetadata().getGeneration();
        Long observed = cluster.getStatus() == null ? null : cluster.getStatus().getObservedGeneration();
        if (generation == null || observed == null || observed >= generation) {
            return null;
        }
        return new SpecLag(observed, generation, before != null && before.observed == observed ? before.since : now);
    }

    /** Why KubeRay is taken not to act on the spec, once behind for {@code patience}; null before. */
    public String problem(Instant now, Duration patience) {
        Duration behind = Duration.between(since, now);
        if (behind.compareTo(patience) < 0) {
            return null;
        }
        return "KubeRay has not acted on generation " + generation + " of the spec for " + behind.toSeconds() + " s (status.observedGeneration is "
                + observed + "): KubeRay 1.3 and later stop at a spec they find invalid and say why in a Warning Event "
                + "InvalidRayClusterSpec on this RayCluster; else the operator may not be running";
    }
}
