package dev.rayscale.events;

/** What Rayscale does for a cluster, given the Ray and KubeRay it runs (the support matrix in docs/ray-versions.md). */
public enum Support {
    /** Scales up and down. */
    FULL,
    /** Adds capacity but removes none: a scale-down could not be made safe on this cluster (the limits say why). */
    SCALE_UP_ONLY,
    /** Left alone: nothing is changed (the decisions are FROZEN), and a Warning Event on the RayCluster says why. */
    UNSUPPORTED
}
