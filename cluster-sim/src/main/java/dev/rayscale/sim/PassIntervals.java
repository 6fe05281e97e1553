package dev.rayscale.sim;

import java.util.Arrays;

/** The intervals between the passes of each of a fleet's clusters, as they happened. Thread-safe. */
final class PassIntervals {

    private final long[] lastPassNanos;
    private long[] intervalsMillis = new long[1024];
    private int count;

    PassIntervals(int clusters) {
        this.lastPassNanos = new long[clusters];
        Arrays.fill(lastPassNanos, Long.MIN_VALUE);
    }

    /** Cluster {@code slot} begins a pass now. */
    synchronized void passed(int slot) {
        long now = System.nanoTime();
        long last = lastPassNanos[slot];
        lastPassNanos[slot] = now;
        if (last == Long.MIN_VALUE) {
            return;
        }
        if (count == intervalsMillis.length) {
            intervalsMillis = Arrays.copyOf(intervalsMillis, count * 2);
        }
        intervalsMillis[count++] = (now - last) / 1_000_000;
    }

    /** Forgets the intervals so far (a pass under way still ends one). */
    synchronized void clear() {
        count = 0;
    }

    synchronized long[] sortedMillis() {
        long[] sorted = Arrays.copyOf(intervalsMillis, count);
        Arrays.sort(sorted);
        return sorted;
    }
}
