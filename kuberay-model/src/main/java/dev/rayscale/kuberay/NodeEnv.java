package dev.rayscale.kuberay;

import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.EnvVarBuilder;
import java.util.ArrayList;
import java.util.List;

/**
 * What KubeRay writes into a Ray pod beside its labels, by release (read at ray-project/kuberay's tags, {@code common/pod.go}
 * {@code setContainerEnvVars} and {@code raycluster_controller.go} {@code createHeadPod}), and the Ray settings a pod's
 * template may carry. A pod keeps what the operator that made it wrote: an upgraded operator does not re-create pods.
 */
public final class NodeEnv {

    /** The pod's name, from the downward API, on the Ray container of every pod from KubeRay v1.1.0; Ray's node instance id. */
    public static final String INSTANCE_ID = "RAY_CLOUD_INSTANCE_ID";
    /** The pod's {@code ray.io/group} label, likewise from v1.1.0; Ray's node type name. */
    public static final String NODE_TYPE_NAME = "RAY_NODE_TYPE_NAME";
    /** The pod's namespace, on the Ray container of every pod from KubeRay v1.6.0. */
    public static final String CLUSTER_NAMESPACE = "RAY_CLUSTER_NAMESPACE";
    /** On the head pod from KubeRay v1.6.0: the operator's version. */
    public static final String KUBERAY_VERSION_ANNOTATION = "ray.io/kuberay-version";
    /** Ray's own switch for TLS on every gRPC server, the GCS's included ({@code RAY_USE_TLS}, RayConfig {@code USE_TLS}). */
    public static final String USE_TLS = "RAY_USE_TLS";

    private NodeEnv() {
    }

    /**
     * The environment KubeRay writes on a pod's Ray container: from v1.1.0 the pod's name and group, from v1.6.0 its
     * namespace, each from the downward API.
     */
    public static List<EnvVar> written(boolean fromV11, boolean fromV16) {
        List<EnvVar> env = new ArrayList<>();
        if (fromV11) {
            env.add(fieldRef(INSTANCE_ID, "metadata.name"));
            env.add(fieldRef(NODE_TYPE_NAME, "metadata.labels['" + RayLabels.GROUP + "']"));
        }
        if (fromV16) {
            env.add(fieldRef(CLUSTER_NAMESPACE, "metadata.namespace"));
        }
        return env;
    }

    private static EnvVar fieldRef(String name, String path) {
        return new EnvVarBuilder().withName(name).withNewValueFrom().withNewFieldRef().withFieldPath(path).endFieldRef().endValueFrom().build();
    }
}
