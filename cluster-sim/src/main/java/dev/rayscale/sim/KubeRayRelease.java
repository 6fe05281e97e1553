package dev.rayscale.sim;

import dev.rayscale.events.ReleaseVersion;

/**
 * What a KubeRay release does where releases differ, read at ray-project/kuberay's release tags ({@code git show
 * <tag>:<path>}):
 * <ul>
 *   <li><b>v1.1.0</b>: the Ray container of every pod gets {@code RAY_CLOUD_INSTANCE_ID} (the pod name) and
 *       {@code RAY_NODE_TYPE_NAME} (its {@code ray.io/group} label) from the downward API ({@code common/pod.go}
 *       {@code setContainerEnvVars}; PRs 1759, 1973). Before, Ray nodes carry no pod name and no group (the raylet reads
 *       both from those variables, the empty string when absent).</li>
 *   <li><b>v1.2.0</b>: worker pods are named {@code <cluster>-<group>-worker-} (first 50 characters of the prefix,
 *       {@code PodGenerateName}); before, {@code <cluster>-worker-<group>-} cut to its last 50 ({@code CheckName}).</li>
 *   <li><b>v1.3.0</b>: the {@code ReplicaFailure} condition is on by default (gate {@code RayClusterStatusConditions},
 *       Alpha in 1.2, no conditions at all before).</li>
 *   <li><b>v1.6.0</b>: multi-host pods carry {@code ray.io/worker-group-replica-name} (gate {@code RayMultiHostIndexing}
 *       Beta, on); the Ray container gets {@code RAY_CLUSTER_NAMESPACE}; the head pod the annotation
 *       {@code ray.io/kuberay-version}.</li>
 * </ul>
 */
public record KubeRayRelease(ReleaseVersion version) {

    /** The KubeRay the simulator runs unless told otherwise: the fact sheet's snapshot (HEAD feeaf72f, the v1.7.0 tag's date). */
    public static final String CURRENT = "1.7.0";

    private static final ReleaseVersion NODE_ENV = ReleaseVersion.of(1, 1);
    private static final ReleaseVersion GROUP_FIRST_NAMES = ReleaseVersion.of(1, 2);
    private static final ReleaseVersion CONDITIONS = ReleaseVersion.of(1, 3);
    private static final ReleaseVersion REPLICA_LABELS = ReleaseVersion.of(1, 6);

    public static KubeRayRelease of(String version) {
        return new KubeRayRelease(ReleaseVersion.parse(version)
                .orElseThrow(() -> new IllegalArgumentException("not a KubeRay version: " + version)));
    }

    /** Ray containers get {@code RAY_CLOUD_INSTANCE_ID} and {@code RAY_NODE_TYPE_NAME}. */
    public boolean setsNodeEnv() {
        return version.atLeast(NODE_ENV);
    }

    /** Worker pods are named after their cluster and group in that order, the prefix cut to its first 50 characters. */
    public boolean groupFirstPodNames() {
        return version.atLeast(GROUP_FIRST_NAMES);
    }

    /** The RayCluster reports pods it cannot create as the {@code ReplicaFailure} condition. */
    public boolean replicaFailureCondition() {
        return version.atLeast(CONDITIONS);
    }

    /** Multi-host pods carry their replica's name; Ray containers {@code RAY_CLUSTER_NAMESPACE}; the head the version annotation. */
    public boolean replicaLabels() {
        return version.atLeast(REPLICA_LABELS);
    }

    /** The value of the head pod's {@code ray.io/kuberay-version} annotation. */
    public String annotation() {
        return "v" + version;
    }

    @Override
    public String toString() {
        return version.toString();
    }
}
