package dev.rayscale.clients;

import io.fabric8.kubernetes.api.model.PodList;
import io.fabric8.kubernetes.api.model.WatchEvent;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.ray.v1.RayCluster;

/**
 * Builds the client's readers of RayClusters, pods and watch events ahead of the first answer that needs them. fabric8
 * reads an answer on the Vert.x event loop, and the first read of a type builds its Jackson deserializers there (class
 * loading, reflection): with the three services starting together on two cores that blocked the loop for 2-3 s, and
 * Vert.x warned. Called off the event loop and off the start-up path, it moves that cost where nothing waits on it.
 */
public final class ClusterReaders {

    private ClusterReaders() {
    }

    /** Builds them; a failure here only means the first answer builds them, as it would have anyway. */
    public static void build(KubernetesClient client) {
        var serialization = client.getKubernetesSerialization();
        serialization.unmarshal("{}", RayCluster.class);
        serialization.unmarshal("{\"items\":[{}]}", PodList.class);
        serialization.unmarshal("{\"type\":\"ADDED\",\"object\":{\"apiVersion\":\"v1\",\"kind\":\"Pod\"}}", WatchEvent.class);
    }
}
