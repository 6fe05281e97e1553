package dev.rayscale.audit;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.HashMap;
import java.util.Map;

/**
 * What is kept of one cluster's recent snapshots, by id, until a decision answers them: those observed
 * within {@link #WINDOW} of the newest (a decision comes within its TTL, 30 s by default, or not at all),
 * and at most {@link #LIMIT} of them.
 */
final class RecentSnapshots<T> {

    static final Duration WINDOW = Duration.ofMinutes(2);
    static final int LIMIT = 512;

    private record Entry(String id, Instant observedAt) {
    }

    private final ArrayDeque<Entry> order = new ArrayDeque<>();
    private final Map<String, T> byId = new HashMap<>();

    /** Keeps {@code value} for {@code snapshot}; returns what fell out of the window, oldest first. */
    List<T> put(SnapshotHead snapshot, T value) {
        if (byId.put(snapshot.id(), value) == null) {
            order.add(new Entry(snapshot.id(), snapshot.observedAt()));
        }
        List<T> dropped = new ArrayList<>();
        Instant horizon = snapshot.observedAt().minus(WINDOW);
        while (order.size() > LIMIT || order.peek().observedAt().isBefore(horizon)) {
            T gone = byId.remove(order.poll().id());
            if (gone != null) {
                dropped.add(gone);
            }
        }
        return dropped;
    }

    T get(String id) {
        return byId.get(id);
    }

}
