package dev.rayscale.events;

/** What a reason of a decision is about: the kind, for dashboards and alerts; the reason's detail says the rest. */
public enum ReasonCode {
    /** The cluster's policy suspends Rayscale. */
    SUSPENDED,
    /** The Ray GCS could not be read: the size is held. */
    GCS_UNREADABLE,
    /** The cluster's Ray or KubeRay cannot be served safely (the snapshot's versions say why): nothing is changed. */
    VERSION_UNSUPPORTED,
    /** The cluster's Ray or KubeRay allows no safe scale-down: capacity is added, none removed. */
    SCALE_DOWN_UNSAFE,
    /** The Kubernetes view is stale or unavailable: the size is held. */
    KUBERNETES_UNRELIABLE,
    /** KubeRay is not acting on the RayCluster's current spec (an invalid spec stops it): nothing is changed. */
    SPEC_NOT_RECONCILED,
    /** A group's target replicas differ from its current ones; the detail says by what and why. */
    REPLICAS_CHANGED,
    /** A group's pods cannot be created (quota, admission): the operator's pod creation fails. */
    LAUNCH_FAILING,
    /** Replicas whose pods cannot be created are given back, as no demand waits for them. */
    LAUNCHES_GIVEN_BACK,
    /** More workers than the cluster-wide cap: the excess is removed. */
    ABOVE_WORKER_CAP,
    /** Pending tasks wait for the upscaling limit: fewer new nodes than they need are asked for now. */
    UPSCALING_LIMITED,
    /** A pod waited for a node longer than the policy's patience and is replaced. */
    STUCK_POD_REPLACED,
    /** A pod has waited for a node longer than the policy's patience. */
    STUCK_POD_WAITING,
    /** Idle nodes past their idle timeout are removed. */
    IDLE_REMOVED,
    /** The new nodes were chosen cheaper than Ray's packing would choose them, for the same demand. */
    ECONOMICAL_PACKING
}
