package dev.rayscale.collector;

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Clusters due for a GCS read, served namespace by namespace in turn, with at most {@code perNamespace} reads of one
 * namespace under way at once while others may need the slots. One shared collector serves every team: a namespace with
 * many clusters, or many whose GCS does not answer (each such read holds a call slot until its deadline), takes its share
 * of the call slots, and more only while a share's worth of slots stays free for the others.
 *
 * @param <T> a due read
 */
final class FairReads<T> {

    private final int perNamespace;
    private final Consumer<String> shareReached;
    /** Each namespace's waiting reads; the order is the turn: a namespace served goes to the back. */
    private final LinkedHashMap<String, ArrayDeque<T>> waiting = new LinkedHashMap<>();
    private final Map<String, Integer> reading = new HashMap<>();
    private int size;

    /** @param shareReached told a namespace's name each time a read of it waits because its share is under way */
    FairReads(int perNamespace, Consumer<String> shareReached) {
        this.perNamespace = perNamespace;
        this.shareReached = shareReached;
    }

    synchronized void add(String namespace, T read) {
        waiting.computeIfAbsent(namespace, key -> new ArrayDeque<>()).add(read);
        size++;
    }

    /**
     * The next read to start, from the first namespace in turn under its share, or beyond it while more than a share's worth
     * of the {@code freeSlots} (this one's included) would stay free; null if none may start now.
     */
    synchronized T poll(int freeSlots) {
        for (Iterator<Map.Entry<String, ArrayDeque<T>>> turns = waiting.entrySet().iterator(); turns.hasNext(); ) {
            Map.Entry<String, ArrayDeque<T>> turn = turns.next();
            String namespace = turn.getKey();
            if (reading.getOrDefault(namespace, 0) >= perNamespace && freeSlots <= perNamespace) {
                shareReached.accept(namespace);
                continue;
            }
            T read = turn.getValue().poll();
            turns.remove();
            if (!turn.getValue().isEmpty()) {
                waiting.put(namespace, turn.getValue());
            }
            reading.merge(namespace, 1, Integer::sum);
            size--;
            return read;
        }
        return null;
    }

    /** A read of {@code namespace} that {@link #poll} started has ended. */
    synchronized void done(String namespace) {
        reading.computeIfPresent(namespace, (key, count) -> count > 1 ? count - 1 : null);
    }

    /** Reads waiting. */
    synchronized int size() {
        return size;
    }

    synchronized void clear() {
        waiting.clear();
        size = 0;
    }
}
