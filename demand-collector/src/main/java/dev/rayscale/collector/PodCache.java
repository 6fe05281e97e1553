package dev.rayscale.collector;

import dev.rayscale.collector.assembly.RayPod;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import io.fabric8.kubernetes.client.informers.cache.ItemStore;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;

/**
 * A pod informer's store that keeps each pod as a {@link RayPod}, indexed by cluster, so that a fleet's pods fit the
 * collector's small heap and a poll reads one cluster's pods without a scan.
 *
 * <p>The informer itself reads only a stored pod's key and resource version (to tell an update from a re-listed,
 * unchanged pod, and to find pods gone at a re-list), so it is handed pods re-made with just those. A pod's update
 * replaces it in its cluster's index in one step: a poll reading meanwhile sees the old pod or the new, never neither.
 */
final class PodCache implements ItemStore<Pod> {

    private final String replicaLabel;
    private final Map<String, RayPod> byKey = new ConcurrentHashMap<>();
    private final Map<String, Map<String, RayPod>> byCluster = new ConcurrentHashMap<>();

    /** @param replicaLabel the pod label naming a multi-host replica */
    PodCache(String replicaLabel) {
        this.replicaLabel = replicaLabel;
    }

    /** The pods of one cluster ({@code namespace/name}), in no set order. */
    List<RayPod> pods(String clusterId) {
        Map<String, RayPod> pods = byCluster.get(clusterId);
        return pods == null ? List.of() : List.copyOf(pods.values());
    }

    @Override
    public String getKey(Pod pod) {
        return Cache.metaNamespaceKeyFunc(pod);
    }

    @Override
    public Pod put(String key, Pod pod) {
        RayPod kept = RayPod.of(pod, replicaLabel);
        RayPod old = byKey.put(key, kept);
        if (kept.clusterId() != null) {
            byCluster.compute(kept.clusterId(), (cluster, pods) -> {
                Map<String, RayPod> into = pods == null ? new ConcurrentHashMap<>() : pods;
                into.put(kept.name(), kept);
                return into;
            });
        }
        if (old != null && !Objects.equals(old.clusterId(), kept.clusterId())) {
            unindex(old);
        }
        return informerView(old);
    }

    @Override
    public Pod remove(String key) {
        RayPod old = byKey.remove(key);
        if (old != null) {
            unindex(old);
        }
        return informerView(old);
    }

    private void unindex(RayPod pod) {
        if (pod.clusterId() != null) {
            byCluster.computeIfPresent(pod.clusterId(), (cluster, pods) -> {
                pods.remove(pod.name(), pod);
                return pods.isEmpty() ? null : pods;
            });
        }
    }

    @Override
    public Stream<String> keySet() {
        return byKey.keySet().stream();
    }

    @Override
    public Stream<Pod> values() {
        return byKey.values().stream().map(PodCache::informerView);
    }

    @Override
    public int size() {
        return byKey.size();
    }

    @Override
    public Pod get(String key) {
        return informerView(byKey.get(key));
    }

    /** What the informer reads of a stored pod: its namespace, name and resource version. */
    private static Pod informerView(RayPod pod) {
        return pod == null ? null : new PodBuilder().withNewMetadata().withNamespace(pod.namespace()).withName(pod.name())
                .withResourceVersion(pod.resourceVersion()).endMetadata().build();
    }
}
