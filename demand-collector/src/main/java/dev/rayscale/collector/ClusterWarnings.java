package dev.rayscale.collector;

import dev.rayscale.clients.ClusterEvents;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.ray.v1.RayCluster;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.jboss.logging.Logger;

/**
 * Tells a cluster's owners what stops Rayscale from scaling it: a warning in the log and a Kubernetes Event on the
 * RayCluster, once per generation of its spec (a fix changes the generation; repeating it every poll would not help).
 */
@ApplicationScoped
public class ClusterWarnings {

    private static final Logger LOG = Logger.getLogger(ClusterWarnings.class);

    private final ClusterEvents events;
    private final Set<String> warned = ConcurrentHashMap.newKeySet();

    public ClusterWarnings(KubernetesClient kubernetes) {
        this.events = new ClusterEvents(kubernetes, "rayscale-demand-collector");
    }

    void once(RayCluster cluster, String reason, String message) {
        if (warned.add(cluster.getMetadata().getUid() + "/" + ClusterObserver.generation(cluster) + "/" + reason)) {
            LOG.warnf("%s/%s: %s", cluster.getMetadata().getNamespace(), cluster.getMetadata().getName(), message);
            events.record(cluster, ClusterEvents.Type.Warning, reason, message);
        }
    }
}
