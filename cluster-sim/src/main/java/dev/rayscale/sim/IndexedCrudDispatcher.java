package dev.rayscale.sim;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.server.mock.KubernetesAttributesExtractor;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.fabric8.mockwebserver.crud.Attribute;
import io.fabric8.mockwebserver.crud.AttributeSet;
import io.fabric8.mockwebserver.crud.AttributeType;
import io.fabric8.mockwebserver.http.MockResponse;
import java.lang.reflect.Field;
import java.net.HttpURLConnection;
import java.time.LocalDateTime;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The mock API server's CRUD store, with objects found by name as a real API server finds them (by key,
 * in etcd and in its watch cache). fabric8's mock matches every request against every stored object;
 * with a fleet's tens of thousands of pods every GET, create, patch and delete of one object then costs
 * a scan of all of them, and the mock, not the client, sets the pace. Here a request that names one
 * namespaced object ({@code /namespaces/NS/PLURAL/NAME}: a GET, delete, create, update or patch) is answered from an
 * index; lists and label-selected reads still scan, as a real API server's do (it filters a namespace's objects by label).
 *
 * <p>The index holds, per (plural, namespace, name), the exact key the store holds the object under. It is kept by
 * {@link #processEvent}, through which every write to the store passes, and an entry is indexed only once the store is
 * seen to hold it under that key: an object the index does not name is not stored, and a hit is checked against the
 * store (one caught mid-write falls back to the library's own locked scan).
 *
 * <p>A list that asks for pages ({@code limit}) is served in pages ({@link ListPages}), as a real API server serves it.
 */
class IndexedCrudDispatcher extends KubernetesCrudDispatcher {

    private record Identity(Attribute plural, Attribute namespace, Attribute name) {

        /** The identity a query or a stored key names, null unless it names one namespaced object. */
        static Identity of(AttributeSet attributes) {
            Attribute plural = attributes.getAttribute(KubernetesAttributesExtractor.PLURAL);
            Attribute namespace = attributes.getAttribute(KubernetesAttributesExtractor.NAMESPACE);
            Attribute name = attributes.getAttribute(KubernetesAttributesExtractor.NAME);
            return plural == null || namespace == null || name == null ? null : new Identity(plural, namespace, name);
        }
    }

    /**
     * The one label indexed, {@code ray.io/cluster}: KubeRay and Rayscale read a cluster's pods by it, and with a fleet's
     * pods in one namespace each such list would otherwise scan them all (a real API server's watch cache holds a
     * namespace's objects apart; here a fleet shares one).
     */
    private static final String INDEXED_LABEL = "labels:ray.io/cluster";

    private final Map<Identity, AttributeSet> byName = new ConcurrentHashMap<>();
    /** The keys of the stored objects that carry {@link #INDEXED_LABEL}, by its value. */
    private final Map<String, Set<AttributeSet>> byClusterLabel = new ConcurrentHashMap<>();
    private final ListPages pages = new ListPages();
    private final ReadWriteLock store;
    private final Lock writes;
    private final AtomicLong resourceVersion;

    IndexedCrudDispatcher() {
        super(List.of());
        this.store = storeLock();
        this.writes = store.writeLock();
        this.resourceVersion = libraryField("resourceVersion", AtomicLong.class);
    }

    /**
     * The lock the library's store takes for every write: a delete done here must exclude them as the library's own does.
     * It is private to the library, so it is read once here; a version without it fails at once, not with races.
     */
    private ReadWriteLock storeLock() {
        return libraryField("lock", ReadWriteLock.class);
    }

    /** A field private to the library's dispatcher, read once; a version without it fails at once. */
    private <T> T libraryField(String name, Class<T> type) {
        try {
            Field field = KubernetesCrudDispatcher.class.getDeclaredField(name);
            field.setAccessible(true);
            return type.cast(field.get(this));
        } catch (ReflectiveOperationException | ClassCastException e) {
            throw new IllegalStateException("fabric8's KubernetesCrudDispatcher no longer keeps a " + type.getSimpleName() + " in '" + name + "'", e);
        }
    }

    /** Used by creates, updates and patches to find the object they act on. */
    @Override
    public Map.Entry<AttributeSet, String> findResource(AttributeSet query) {
        Identity identity = Identity.of(query);
        if (identity == null) {
            return super.findResource(query);
        }
        AttributeSet key = byName.get(identity);
        String stored = key == null ? null : map.get(key);
        if (stored != null && key.matches(query)) {
            return Map.entry(key, stored);
        }
        // Not indexed means not stored (every write passes processEvent); a stale hit is checked by the scan.
        return key == null ? null : super.findResource(query);
    }

    @Override
    public MockResponse handleGet(String path) {
        if (path.indexOf('?') >= 0) {
            ListPages.Request paged = ListPages.Request.of(path);
            if (paged == null) {
                return labelled(path);
            }
            AttributeSet listQuery = attributeExtractor.fromPath(paged.path());
            if (Identity.of(listQuery) != null) {
                return super.handleGet(path);
            }
            return paged.token() != null ? pages.next(paged) : listed(paged, listQuery);
        }
        AttributeSet query = attributeExtractor.fromPath(path);
        Identity identity = Identity.of(query);
        if (identity == null) {
            return super.handleGet(path);
        }
        AttributeSet key = byName.get(identity);
        if (key == null) {
            return new MockResponse().setResponseCode(HttpURLConnection.HTTP_NOT_FOUND);
        }
        String stored = map.get(key);
        // Read between a write's removal and its new key's indexing: the library's locked scan answers.
        return stored != null && key.matches(query) ? new MockResponse().setResponseCode(HttpURLConnection.HTTP_OK).setBody(stored)
                : super.handleGet(path);
    }

    /**
     * A list in one answer: from the label index when it selects one value of the indexed label, else the library's scan.
     * An empty answer is left to the library too, which may answer a path that lists nothing with the API's metadata.
     */
    private MockResponse labelled(String path) {
        AttributeSet query = attributeExtractor.fromPath(path);
        if (Identity.of(query) != null || indexedValue(query) == null) {
            return super.handleGet(path);
        }
        MockResponse listed = listed(new ListPages.Request(path, Integer.MAX_VALUE, null), query);
        return listed == null ? super.handleGet(path) : listed;
    }

    /** The value of the indexed label a query selects by equality, or null. */
    private static String indexedValue(AttributeSet query) {
        Attribute label = query.getAttribute(INDEXED_LABEL);
        return label == null || label.getType() != AttributeType.WITH || label.getValues().size() != 1 ? null
                : label.getValues().get(0).toString();
    }

    /**
     * The first page of a list: what matches it now, in the order of the storage keys (namespace, then name); null if
     * nothing matches a list in one answer ({@link #labelled}).
     */
    private MockResponse listed(ListPages.Request request, AttributeSet query) {
        String indexed = indexedValue(query);
        store.readLock().lock();
        try {
            Stream<Map.Entry<AttributeSet, String>> candidates = indexed == null ? map.entrySet().stream()
                    : byClusterLabel.getOrDefault(indexed, Set.of()).stream().map(key -> {
                        String stored = map.get(key);
                        return stored == null ? null : Map.entry(key, stored);
                    }).filter(Objects::nonNull);
            List<String> items = candidates.filter(entry -> entry.getKey().matches(query))
                    .sorted(Comparator.comparing((Map.Entry<AttributeSet, String> entry) -> storageKey(entry.getKey())))
                    .map(Map.Entry::getValue).toList();
            if (items.isEmpty() && request.limit() == Integer.MAX_VALUE) {
                return null;
            }
            return pages.first(request, items, String.valueOf(resourceVersion.get()));
        } finally {
            store.readLock().unlock();
        }
    }

    private static String storageKey(AttributeSet key) {
        return value(key.getAttribute(KubernetesAttributesExtractor.NAMESPACE)) + "/" + value(key.getAttribute(KubernetesAttributesExtractor.NAME));
    }

    private static String value(Attribute attribute) {
        return attribute == null ? "" : attribute.getValues().stream().map(Object::toString).collect(Collectors.joining(","));
    }

    /**
     * A delete of one object by name: as the library's, which removes it unless it has finalizers; then it marks it deleted
     * (a deletion timestamp, in the library's own format) the first time and does nothing after. Every simulated pod has a
     * finalizer, so a fleet's scale-down would otherwise scan the whole store once per pod.
     */
    @Override
    public MockResponse handleDelete(String path) {
        AttributeSet query = path.indexOf('?') >= 0 ? null : attributeExtractor.fromPath(path);
        Identity identity = query == null ? null : Identity.of(query);
        if (identity == null) {
            return super.handleDelete(path);
        }
        writes.lock();
        try {
            AttributeSet key = byName.get(identity);
            if (key == null) {
                return new MockResponse().setResponseCode(HttpURLConnection.HTTP_NOT_FOUND);
            }
            String stored = map.get(key);
            if (stored == null || !key.matches(query)) {
                return super.handleDelete(path);
            }
            GenericKubernetesResource resource = Serialization.unmarshal(stored, GenericKubernetesResource.class);
            if (resource.getFinalizers().isEmpty()) {
                processEvent(path, query, key, null, null);
            } else if (!resource.isMarkedForDeletion()) {
                resource.getMetadata().setDeletionTimestamp(LocalDateTime.now().toString());
                processEvent(path, query, key, resource, Serialization.asJson(resource));
            }
            return new MockResponse().setResponseCode(HttpURLConnection.HTTP_OK).setBody(stored);
        } finally {
            writes.unlock();
        }
    }

    @Override
    public void processEvent(String path, AttributeSet pathAttributes, AttributeSet oldAttributes, GenericKubernetesResource resource,
            String newState) {
        super.processEvent(path, pathAttributes, oldAttributes, resource, newState);
        if (oldAttributes != null) {
            Identity old = Identity.of(oldAttributes);
            if (old != null) {
                byName.remove(old, oldAttributes);
            }
            String label = labelValue(oldAttributes);
            if (label != null && !map.containsKey(oldAttributes)) {
                byClusterLabel.computeIfPresent(label, (value, keys) -> {
                    keys.remove(oldAttributes);
                    return keys.isEmpty() ? null : keys;
                });
            }
        }
        if (newState != null) {
            AttributeSet stored = storedKey(pathAttributes, resource, newState);
            Identity identity = Identity.of(stored);
            if (identity != null && newState.equals(map.get(stored))) {
                byName.put(identity, stored);
            }
            String label = labelValue(stored);
            if (label != null) {
                byClusterLabel.computeIfAbsent(label, value -> ConcurrentHashMap.newKeySet()).add(stored);
            }
        }
    }

    /** The key {@link KubernetesCrudDispatcher#processEvent} stores a new state under: its attributes, with the path's plural. */
    private AttributeSet storedKey(AttributeSet pathAttributes, GenericKubernetesResource resource, String newState) {
        KubernetesAttributesExtractor extractor = (KubernetesAttributesExtractor) attributeExtractor;
        AttributeSet attributes = resource != null ? extractor.extract(resource) : extractor.fromResource(newState);
        return attributes.containsKey(KubernetesAttributesExtractor.PLURAL) ? attributes : AttributeSet.merge(pathAttributes, attributes);
    }

    /** The value of the indexed label on a stored object's key, or null. */
    private static String labelValue(AttributeSet key) {
        Attribute label = key.getAttribute(INDEXED_LABEL);
        return label == null || label.getValues().isEmpty() ? null : label.getValues().get(0).toString();
    }

    /** How many objects the index names. */
    int indexed() {
        return byName.size();
    }

    @Override
    public void reset() {
        super.reset();
        byName.clear();
        byClusterLabel.clear();
    }
}
