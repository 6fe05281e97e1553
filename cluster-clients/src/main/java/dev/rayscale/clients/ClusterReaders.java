package dev.rayscale.clients;

import io.fabric8.kubernetes.api.model.PodList;
import io.fabric8.kubernetes.api.model.WatchEvent;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.ray.v1.RayCluster;

/**
 * The client's readers of RayClusters, pods and watch events, built ahead of the first answer that needs them. fabric8
 * reads an answer on the Vert.x event loop, and the first read of a type builds its Jackson deserializers there (class
 * loading, reflection): with the three services starting together on two cores that blocked the loop for 2-3 s, and
 * Vert.x warned. Jackson builds one deserializer at a time, so an answer read while another thread builds them blocks
 * the loop as well: callers that are about to ask for one call {@link #build()} first and wait off the loop.
 */
public final class ClusterReaders {

    private final KubernetesClient client;
    private volatile boolean tried;
    private boolean built;

    public ClusterReaders(KubernetesClient client) {
        this.client = client;
    }

    /**
     * Builds them on the first call; later calls return at once (without a lock: every Kubernetes call of the actuator
     * makes one), or wait while the first is still building. False if building failed: the first answer of each type
     * then builds its reader, as it would have anyway.
     */
    public boolean build() {
        if (!tried) {
            synchronized (this) {
                if (!tried) {
                    built = buildNow();
                    tried = true;
                }
            }
        }
        return built;
    }

    private boolean buildNow() {
        try {
            var serialization = client.getKubernetesSerialization();
            serialization.unmarshal("{}", RayCluster.class);
            serialization.unmarshal("{\"items\":[{}]}", PodList.class);
            serialization.unmarshal("{\"type\":\"ADDED\",\"object\":{\"apiVersion\":\"v1\",\"kind\":\"Pod\"}}", WatchEvent.class);
            return true;
        } catch (RuntimeException failed) {
            return false;
        }
    }
}
