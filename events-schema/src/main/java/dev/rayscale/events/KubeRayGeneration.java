package dev.rayscale.events;

/**
 * Which KubeRay made a cluster's pods, as far as the pods tell (an operator upgrade does not re-create pods, so the oldest
 * pod decides). Markers, from KubeRay's tags: the Ray container's {@code RAY_CLOUD_INSTANCE_ID} env from v1.1.0, its
 * {@code RAY_CLUSTER_NAMESPACE} env from v1.6.0 ({@code common/pod.go}, {@code setContainerEnvVars}).
 */
public enum KubeRayGeneration {
    /** Before 1.1: Ray nodes carry no pod name (no {@code RAY_CLOUD_INSTANCE_ID}), so they cannot be joined to pods. */
    BEFORE_1_1,
    /** 1.1 to 1.5: multi-host pods carry no replica name (the replica labels are on by default from 1.6). */
    FROM_1_1,
    /** 1.6 or later. */
    FROM_1_6
}
