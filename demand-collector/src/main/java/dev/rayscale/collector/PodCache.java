package dev.rayscale.collector;

import dev.rayscale.collector.assembly.PodFields;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.informers.cache.BasicItemStore;
import io.fabric8.kubernetes.client.informers.cache.Cache;

/**
 * The pod informers' store: each pod kept as the assembly reads it ({@link PodFields}), not whole, so that a fleet's
 * pods fit the collector's small heap. Keyed as the informer's own store is (namespace/name).
 *
 * <p>It still reports full state (the library's default): the informer reads only the resource version from a stored
 * pod (to skip re-listed, unchanged pods), and the reduced pods keep it.
 */
final class PodCache extends BasicItemStore<Pod> {

    PodCache() {
        super(Cache::metaNamespaceKeyFunc);
    }

    @Override
    public Pod put(String key, Pod pod) {
        return super.put(key, PodFields.kept(pod));
    }
}
