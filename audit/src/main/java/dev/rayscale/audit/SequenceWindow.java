package dev.rayscale.audit;

import java.time.Duration;

/**
 * The sequences of one cluster's recent snapshots, to tell a decision whose snapshot is in the recording from one whose
 * snapshot is missing: those observed within {@link #WINDOW} of the newest (the planner skips a snapshot older than its
 * decision TTL, 30 s by default, so a decision answers a snapshot within that or not at all), at most {@link #LIMIT}.
 * Two arrays of numbers: a thousand clusters' windows are a few MiB.
 */
final class SequenceWindow {

    static final Duration WINDOW = Duration.ofSeconds(90);
    static final int LIMIT = 256;

    private final long[] sequences = new long[LIMIT];
    private final long[] observedAt = new long[LIMIT];
    private int oldest;
    private int size;

    void add(long sequence, long observedAtMillis) {
        int slot = (oldest + size) % LIMIT;
        if (size == LIMIT) {
            oldest = (oldest + 1) % LIMIT;
        } else {
            size++;
        }
        sequences[slot] = sequence;
        observedAt[slot] = observedAtMillis;
        long horizon = observedAtMillis - WINDOW.toMillis();
        while (size > 1 && observedAt[oldest] < horizon) {
            oldest = (oldest + 1) % LIMIT;
            size--;
        }
    }

    boolean contains(long sequence) {
        for (int i = 0; i < size; i++) {
            if (sequences[(oldest + i) % LIMIT] == sequence) {
                return true;
            }
        }
        return false;
    }
}
