package dev.rayscale.collector;

import java.time.Duration;
import java.util.function.LongSupplier;

/**
 * Whether the poller still makes progress: its rounds end, and while clusters wait for a GCS call slot, reads finish. Every
 * GCS call has a deadline, so a poller that does neither for {@code patience} is wedged (a call that never ends, a lock
 * never released), and only a restart serves the fleet again: the liveness probe says so.
 */
final class PollerProgress {

    private final Duration patience;
    private final LongSupplier nanoTime;
    private volatile long lastRound;
    private volatile long lastRead;

    PollerProgress(Duration patience, LongSupplier nanoTime) {
        this.patience = patience;
        this.nanoTime = nanoTime;
        this.lastRound = nanoTime.getAsLong();
        this.lastRead = lastRound;
    }

    void roundEnded() {
        lastRound = nanoTime.getAsLong();
    }

    void readEnded() {
        lastRead = nanoTime.getAsLong();
    }

    /** Why the poller is wedged, or null when it is not; {@code waiting} clusters are due and have no call slot. */
    String wedged(int waiting) {
        long now = nanoTime.getAsLong();
        if (now - lastRound > patience.toNanos()) {
            return "no polling round has ended for " + Duration.ofNanos(now - lastRound).toSeconds() + " s";
        }
        if (waiting > 0 && now - lastRead > patience.toNanos()) {
            return "no GCS read has ended for " + Duration.ofNanos(now - lastRead).toSeconds() + " s while " + waiting
                    + " cluster(s) wait for a call slot";
        }
        return null;
    }
}
