package dev.rayscale.collector;

import dev.rayscale.clients.ClusterReaders;
import dev.rayscale.collector.assembly.SnapshotAssembler;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.ray.v1.RayCluster;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.jboss.logging.Logger;

/**
 * What Kubernetes says: every RayCluster and every Ray pod of the watched namespaces, kept current by
 * informers (one list, then a watch), so that polling reads memory, not the API server.
 */
@ApplicationScoped
public class ClusterInventory {

    private static final Logger LOG = Logger.getLogger(ClusterInventory.class);
    private static final String BY_CLUSTER = "cluster";

    private final KubernetesClient client;
    private final CollectorConfig config;
    private final List<SharedIndexInformer<RayCluster>> clusterInformers = new CopyOnWriteArrayList<>();
    private final List<SharedIndexInformer<Pod>> podInformers = new CopyOnWriteArrayList<>();
    private boolean stopped;

    public ClusterInventory(KubernetesClient client, CollectorConfig config) {
        this.client = client;
        this.config = config;
    }

    void start(@Observes StartupEvent event) {
        List<String> namespaces = config.namespaces().orElse(List.of());
        if (namespaces.isEmpty()) {
            clusterInformers.add(client.resources(RayCluster.class).inAnyNamespace().runnableInformer(0));
            podInformers.add(client.pods().inAnyNamespace().withLabel(SnapshotAssembler.CLUSTER_LABEL).runnableInformer(0));
        } else {
            for (String namespace : namespaces) {
                clusterInformers.add(client.resources(RayCluster.class).inNamespace(namespace).runnableInformer(0));
                podInformers.add(client.pods().inNamespace(namespace).withLabel(SnapshotAssembler.CLUSTER_LABEL).runnableInformer(0));
            }
        }
        podInformers.forEach(informer -> informer.itemStore(new PodCache()));
        podInformers.forEach(informer -> informer.addIndexers(Map.of(BY_CLUSTER,
                pod -> List.of(pod.getMetadata().getNamespace() + "/" + pod.getMetadata().getLabels().get(SnapshotAssembler.CLUSTER_LABEL)))));
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

    /** The informers' readers, built off the event loop ({@link ClusterReaders}); the collector is not ready before the informers sync anyway. */
    private void readersReady() {
        try {
            ClusterReaders.build(client);
        } catch (RuntimeException e) {
            LOG.debugf("could not build the informers' readers ahead (%s); their first list builds them", e.getMessage());
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

    /** The pods of one cluster ({@code namespace/name}). */
    public List<Pod> pods(String clusterId) {
        List<Pod> pods = new ArrayList<>();
        podInformers.forEach(informer -> pods.addAll(informer.getIndexer().byIndex(BY_CLUSTER, clusterId)));
        return pods;
    }
}
