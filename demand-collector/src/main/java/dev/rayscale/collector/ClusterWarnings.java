package dev.rayscale.collector;

import dev.rayscale.clients.ClusterEvents;
import dev.rayscale.clients.UnknownEnumValues;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.ray.v1.RayCluster;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import org.jboss.logging.Logger;

/**
 * Tells a cluster's owners what stops Rayscale from scaling it: a warning in the log and a Kubernetes Event on the
 * RayCluster, once per generation of its spec (a fix changes the generation; repeating it every poll would not help).
 * It remembers, for each cluster and reason, only the generation it told last, and forgets a cluster deleted.
 */
@ApplicationScoped
public class ClusterWarnings {

    private static final Logger LOG = Logger.getLogger(ClusterWarnings.class);

    private final ClusterEvents events;
    private final UnknownEnumValues unknownEnumValues;
    /** By cluster uid, the generation each reason was told at last. */
    private final Map<String, Map<String, Long>> told = new ConcurrentHashMap<>();

    public ClusterWarnings(KubernetesClient kubernetes, UnknownEnumValues unknownEnumValues) {
        this.events = new ClusterEvents(kubernetes, "rayscale-demand-collector");
        this.unknownEnumValues = unknownEnumValues;
    }

    /** Warns of the values a newer KubeRay wrote in the cluster that Rayscale reads as unset, so scales by their defaults. */
    void ofUnknownValues(RayCluster cluster) {
        List<UnknownEnumValues.Unknown> unknown = unknownEnumValues.in(cluster);
        if (!unknown.isEmpty()) {
            once(cluster, "UnknownKubeRayValues", "this RayCluster has values, from a newer KubeRay, that this Rayscale does not know: "
                    + unknown + ". Rayscale reads each as if it were unset, and scales the cluster by that field's default (an "
                    + "upscalingMode as Default, an authOptions.mode as no token). Upgrade Rayscale, or set a value it knows.");
        }
    }

    void once(RayCluster cluster, String reason, String message) {
        long generation = ClusterObserver.generation(cluster);
        Long toldAt = told.computeIfAbsent(cluster.getMetadata().getUid(), uid -> new ConcurrentHashMap<>()).put(reason, generation);
        if (!Objects.equals(toldAt, generation)) {
            LOG.warnf("%s/%s: %s", cluster.getMetadata().getNamespace(), cluster.getMetadata().getName(), message);
            events.record(cluster, ClusterEvents.Type.Warning, reason, message);
        }
    }

    /** A deleted cluster: what was told of it, and the unknown values read in it, need not be kept. */
    void forget(RayCluster cluster) {
        told.remove(cluster.getMetadata().getUid());
        unknownEnumValues.forget(cluster);
    }
}
