package dev.rayscale.audit;

import dev.rayscale.events.ClusterSnapshot;
import dev.rayscale.events.codec.EventCodec;
import java.util.Arrays;
import java.util.function.Consumer;

/**
 * The newest snapshots of one cluster, held as their JSON so that the one a decision answers can be read whole when
 * the decision comes. Each is copied into a buffer of the window's own, reused from one snapshot to the next: the
 * record it came in dies young, and holding a window per cluster does not push every snapshot of a long history into
 * the old generation (where only a full collection frees it).
 */
final class HeldSnapshots {

    /** A held snapshot, readable until the window takes the next one. */
    interface Held {

        String id();

        /** The whole snapshot, read from its JSON. */
        ClusterSnapshot full();
    }

    private final String[] ids;
    private final byte[][] buffers;
    private final int[] lengths;
    private int oldest;
    private int size;

    HeldSnapshots(int capacity) {
        ids = new String[capacity];
        buffers = new byte[capacity][];
        lengths = new int[capacity];
    }

    int size() {
        return size;
    }

    /** Holds the snapshot; when the window is full, its oldest goes first, handed to {@code evicted} while still readable. */
    void add(Read.Snapshot snapshot, Consumer<Held> evicted) {
        if (size == ids.length) {
            evicted.accept(view(oldest));
            oldest = (oldest + 1) % ids.length;
            size--;
        }
        int slot = (oldest + size) % ids.length;
        byte[] json = snapshot.origin().value();
        if (buffers[slot] == null || buffers[slot].length < json.length) {
            buffers[slot] = Arrays.copyOf(json, Math.max(json.length, buffers[slot] == null ? 0 : buffers[slot].length * 2));
        } else {
            System.arraycopy(json, 0, buffers[slot], 0, json.length);
        }
        ids[slot] = snapshot.head().id();
        lengths[slot] = json.length;
        size++;
    }

    /** The held snapshot with this id, read whole, or null if it is not held. */
    ClusterSnapshot full(String id) {
        int at = find(id);
        return at < 0 ? null : view((oldest + at) % ids.length).full();
    }

    /**
     * Takes out the snapshot with this id and every older one, handing the older ones to {@code older}, oldest first, and
     * returns it (readable until the next {@link #add}); null, and nothing taken, if it is not held.
     */
    Held takeThrough(String id, Consumer<Held> older) {
        int at = find(id);
        if (at < 0) {
            return null;
        }
        for (int i = 0; i < at; i++) {
            older.accept(view(oldest));
            take();
        }
        Held answered = view(oldest);
        take();
        return answered;
    }

    /** Takes out every held snapshot, handing each to {@code each}, oldest first. */
    void drain(Consumer<Held> each) {
        while (size > 0) {
            each.accept(view(oldest));
            take();
        }
    }

    private void take() {
        ids[oldest] = null;
        oldest = (oldest + 1) % ids.length;
        size--;
    }

    /** The position (0: oldest) of the snapshot with this id, or -1. */
    private int find(String id) {
        for (int i = 0; i < size; i++) {
            if (id.equals(ids[(oldest + i) % ids.length])) {
                return i;
            }
        }
        return -1;
    }

    private Held view(int slot) {
        String id = ids[slot];
        return new Held() {
            @Override
            public String id() {
                return id;
            }

            @Override
            public ClusterSnapshot full() {
                return EventCodec.SNAPSHOTS.bind(Arrays.copyOf(buffers[slot], lengths[slot]));
            }
        };
    }
}
