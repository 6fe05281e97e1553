package dev.rayscale.events;

/** Where the collector read a cluster's Ray version. */
public enum VersionSource {
    /** The head's own record in the GCS ({@code CLUSTER_METADATA}, namespace {@code cluster}): what runs. */
    GCS,
    /** The RayCluster's {@code spec.rayVersion}, which KubeRay does not check against the image. */
    SPEC,
    /** The tag of the head container's image. */
    IMAGE
}
