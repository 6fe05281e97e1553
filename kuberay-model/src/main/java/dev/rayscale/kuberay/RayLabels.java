package dev.rayscale.kuberay;

/**
 * The labels KubeRay puts on every Ray pod it creates (KubeRay's {@code common/pod.go} {@code labelPod} and the keys
 * in {@code ray-operator/controllers/ray/utils/constant.go}; the fact sheet, items 32, 36 and 37). The operator lists a
 * cluster's pods by {@link #CLUSTER}, so the collector, the actuator and the simulator select and read pods by these
 * names and no other.
 */
public final class RayLabels {

    /** The RayCluster's name. */
    public static final String CLUSTER = "ray.io/cluster";
    /** The worker group's name ({@code headgroup} on the head). */
    public static final String GROUP = "ray.io/group";
    /** {@code head} or {@code worker}. */
    public static final String NODE_TYPE = "ray.io/node-type";
    /** Always {@code yes}. */
    public static final String IS_RAY_NODE = "ray.io/is-ray-node";
    /** {@code <cluster>-head} or {@code <cluster>-worker}. */
    public static final String IDENTIFIER = "ray.io/identifier";
    /** A multi-host replica's name, shared by its hosts ({@code numOfHosts} > 1). */
    public static final String REPLICA = "ray.io/worker-group-replica-name";
    /** A multi-host replica's index in its group: the lowest free integer. */
    public static final String REPLICA_INDEX = "ray.io/worker-group-replica-index";
    /** A host's index in its multi-host replica, 0 to n−1. */
    public static final String HOST_INDEX = "ray.io/replica-host-index";

    private RayLabels() {
    }
}
