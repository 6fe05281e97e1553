package dev.rayscale.collector;

import java.time.Instant;

/** The collector's memory of one cluster between polls. Guarded by its own monitor. */
final class Tracked {

    final String id;
    boolean inFlight;
    int failures;
    Instant nextAttempt = Instant.EPOCH;
    long lastStateVersion;
    String lastFingerprint;
    Instant lastPublished = Instant.EPOCH;
    long lastSequence;

    Tracked(String id) {
        this.id = id;
    }

    /**
     * The next snapshot's sequence: the observation time in epoch milliseconds, or one more than the
     * last if the clock has not moved on. Strictly increasing, also across restarts of the collector
     * (the clock has moved on by then) and without any stored state.
     */
    synchronized long nextSequence(Instant observedAt) {
        lastSequence = Math.max(lastSequence + 1, observedAt.toEpochMilli());
        return lastSequence;
    }
}
