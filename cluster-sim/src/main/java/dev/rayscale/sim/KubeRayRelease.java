package dev.rayscale.sim;

import dev.rayscale.events.ReleaseVersion;
import io.ray.v1.RayClusterSpec;
import io.ray.v1.rayclusterspec.WorkerGroupSpecs;

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
 *       Alpha in 1.2, no conditions at all before); a spec {@code utils.ValidateRayClusterSpec} refuses stops the reconcile
 *       with a Warning Event {@code InvalidRayClusterSpec} only ({@code rayClusterReconcile}; none of 1.0 to 1.2.2 has the
 *       stop).</li>
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

    /** A spec the validation refuses stops the reconcile ({@link #specError}). */
    public boolean validatesSpec() {
        return version.atLeast(CONDITIONS);
    }

    /**
     * What this release's {@code ValidateRayClusterSpec} says of the worker groups' bounds (the checks a replicas-minded
     * writer can trip; {@code ray-operator/controllers/ray/utils/validation.go} at kuberay {@code feeaf72f}), or null if it accepts them. It checks neither
     * {@code replicas} nor {@code workersToDelete}: a {@code replicas} above {@code maxReplicas} is clamped, not refused.
     */
    public String specError(RayClusterSpec spec) {
        if (!version.atLeast(REPLICA_LABELS) || spec.getWorkerGroupSpecs() == null) {
            return null;
        }
        for (WorkerGroupSpecs group : spec.getWorkerGroupSpecs()) {
            Integer min = group.getMinReplicas();
            Integer max = group.getMaxReplicas();
            if (min != null && min < 0) {
                return "worker group " + group.getGroupName() + " has negative minReplicas " + min;
            }
            if (max != null && max < 0) {
                return "worker group " + group.getGroupName() + " has negative maxReplicas " + max;
            }
            if (min != null && max != null && min > max) {
                return "worker group " + group.getGroupName() + " has minReplicas " + min + " greater than maxReplicas " + max;
            }
        }
        return null;
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
