package dev.rayscale.collector;

import dev.rayscale.clients.ClusterReaders;
import dev.rayscale.collector.assembly.RayPod;
import dev.rayscale.kuberay.RayLabels;
import dev.rayscale.service.Causes;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.ray.v1.RayCluster;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import org.jboss.logging.Logger;

/**
 * What Kubernetes says: every RayCluster and every Ray pod of the watched namespaces, kept current by
 * informers (one list, then a watch), so that polling reads memory, not the API server.
 */
@ApplicationScoped
public class ClusterInventory {

    private static final Logger LOG = Logger.getLogger(ClusterInventory.class);
    /**
     * Objects per page of the informers' lists (client-go's reflectors take 500 too). Unpaged, a fleet's first list of
     * pods (40,000 of them, a hundred megabytes of JSON) is read whole into the heap, which a small collector cannot
     * hold: it ran out of memory and its informer stopped for good. Paged, each page is cached before the next is read.
     */
    private static final long LIST_PAGE = 500;
    private static final String RAYCLUSTERS = "rayclusters";
    private static final String PODS = "pods";
    /** What the informers watch, as the failure metric names it. */
    static final List<String> KINDS = List.of(RAYCLUSTERS, PODS);

    private final KubernetesClient client;
    private final CollectorConfig config;
    private final CollectorMetrics metrics;
    private final List<SharedIndexInformer<RayCluster>> clusterInformers = new CopyOnWriteArrayList<>();
    private final List<SharedIndexInformer<Pod>> podInformers = new CopyOnWriteArrayList<>();
    private final List<PodCache> podCaches = new CopyOnWriteArrayList<>();
    private final List<Consumer<RayCluster>> deletionListeners = new CopyOnWriteArrayList<>();
    private boolean stopped;

    public ClusterInventory(KubernetesClient client, CollectorConfig config, CollectorMetrics metrics) {
        this.client = client;
        this.config = config;
        this.metrics = metrics;
    }

    void start(@Observes StartupEvent event) {
        List<String> namespaces = config.namespaces().orElse(List.of());
        if (namespaces.isEmpty()) {
            clusterInformers.add(keptTrying(client.resources(RayCluster.class).inAnyNamespace().withLimit(LIST_PAGE).runnableInformer(0), RAYCLUSTERS));
            podInformers.add(keptTrying(client.pods().inAnyNamespace().withLabel(RayLabels.CLUSTER).withLimit(LIST_PAGE).runnableInformer(0), PODS));
        } else {
            for (String namespace : namespaces) {
                clusterInformers.add(keptTrying(client.resources(RayCluster.class).inNamespace(namespace).withLimit(LIST_PAGE).runnableInformer(0),
                        RAYCLUSTERS));
                podInformers.add(keptTrying(client.pods().inNamespace(namespace).withLabel(RayLabels.CLUSTER).withLimit(LIST_PAGE).runnableInformer(0),
                        PODS));
            }
        }
        clusterInformers.forEach(informer -> informer.addEventHandler(new Deletions()));
        for (SharedIndexInformer<Pod> informer : podInformers) {
            PodCache cache = new PodCache(config.replicaLabel());
            informer.itemStore(cache);
            podCaches.add(cache);
        }
        metrics.podsCached(this::podsCached);
        Thread starter = new Thread(() -> {
            readersReady();
            synchronized (this) {
                if (stopped) {
                    return;
                }
                clusterInformers.forEach(SharedIndexInformer::start);
                podInformers.forEach(SharedIndexInformer::start);
            }
            LOG.infof("watching RayClusters and Ray pods in %s", namespaces.isEmpty() ? "all namespaces" : namespaces);
        }, "collector-informers");
        starter.setDaemon(true);
        starter.start();
    }

    /**
     * Keeps {@code informer} trying, with fabric8's backoff, after any failed list or watch. fabric8's own rule gives up on
     * an informer whose first list fails (the API server restarting, the collector's RBAC not applied yet) or whose watch
     * fails with anything but 410 Gone; the collector would then stay unready, or read a cache no longer kept current,
     * until restarted. Kept trying, it is not ready and makes no snapshot until every informer has synced, and while a
     * watch reconnects its snapshots say their Kubernetes side is STALE.
     */
    private <T> SharedIndexInformer<T> keptTrying(SharedIndexInformer<T> informer, String kind) {
        informer.exceptionHandler((started, failure) -> {
            metrics.kubernetesFailure(kind);
            LOG.warnf("%s of %s failed, trying again: %s%s", started ? "watching" : "the first list", kind, Causes.root(failure), hint(kind, failure));
            return true;
        });
        return informer;
    }

    /**
     * What the two refusals an install meets first mean, for the log line: a 403 is the collector's RBAC, and a 404 for
     * RayClusters an API server without KubeRay's CRD. Empty for anything else.
     */
    static String hint(String kind, Throwable failure) {
        return Causes.find(failure, KubernetesClientException.class).map(refused -> {
            if (refused.getCode() == 403) {
                return " (the collector's service account may not list and watch " + kind
                        + ": see its ClusterRole, or its Role in each watched namespace, deploy/README.md)";
            }
            if (refused.getCode() == 404 && RAYCLUSTERS.equals(kind)) {
                return " (this API server has no RayCluster resource: is KubeRay's CRD, rayclusters.ray.io v1, installed?)";
            }
            return "";
        }).orElse("");
    }

    /** The informers' readers, built off the event loop ({@link ClusterReaders}); the collector is not ready before the informers sync anyway. */
    private void readersReady() {
        if (!new ClusterReaders(client).build()) {
            LOG.debugf("could not build the informers' readers ahead; their first list builds them");
        }
    }

    /** Calls {@code listener} with each RayCluster deleted from now on, or found gone when a watch lists again. */
    void whenDeleted(Consumer<RayCluster> listener) {
        deletionListeners.add(listener);
    }

    private final class Deletions implements ResourceEventHandler<RayCluster> {

        @Override
        public void onAdd(RayCluster cluster) {
        }

        @Override
        public void onUpdate(RayCluster before, RayCluster after) {
        }

        @Override
        public void onDelete(RayCluster cluster, boolean finalStateUnknown) {
            deletionListeners.forEach(listener -> listener.accept(cluster));
        }
    }

    /** Closes the informers; ones not started yet (shut down during start-up) are never started. */
    synchronized void stop(@Observes ShutdownEvent event) {
        stopped = true;
        clusterInformers.forEach(SharedIndexInformer::close);
        podInformers.forEach(SharedIndexInformer::close);
    }

    /** True once every informer has listed what it watches. Until then no snapshot is made. */
    public boolean synced() {
        return !clusterInformers.isEmpty() && clusterInformers.stream().allMatch(SharedIndexInformer::hasSynced)
                && podInformers.stream().allMatch(SharedIndexInformer::hasSynced);
    }

    /** False while any watch is reconnecting: what is in memory may be out of date. */
    public boolean watching() {
        return clusterInformers.stream().allMatch(SharedIndexInformer::isWatching)
                && podInformers.stream().allMatch(SharedIndexInformer::isWatching);
    }

    public List<RayCluster> clusters() {
        List<RayCluster> clusters = new ArrayList<>();
        clusterInformers.forEach(informer -> clusters.addAll(informer.getStore().list()));
        return clusters;
    }

    private int podsCached() {
        return podCaches.stream().mapToInt(PodCache::size).sum();
    }

    /** The pods of one cluster ({@code namespace/name}). */
    public List<RayPod> pods(String clusterId) {
        if (podCaches.size() == 1) {
            return podCaches.get(0).pods(clusterId);
        }
        List<RayPod> pods = new ArrayList<>();
        podCaches.forEach(cache -> pods.addAll(cache.pods(clusterId)));
        return pods;
    }
}
