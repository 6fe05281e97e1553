package dev.rayscale.collector.assembly;

import java.time.Duration;
import java.time.Instant;

/**
 * The collector's memory of one cluster between polls, as a value: whether a read is in flight, when
 * the next may start (backoff after failures), what the last published snapshot said (its content
 * fingerprint), when it was published, and the last sequence used. Every transition takes {@code now};
 * nothing here reads a clock.
 *
 * <p>The sequence never moves backwards: the next is one more than the last, at least the observation
 * time in epoch milliseconds (so that it also grows across collector restarts), and above the
 * sequence of the newest decision applied to the cluster, which the actuator marks on the RayCluster
 * (so that a restarted collector whose clock is behind does not make every new decision look older
 * than one already applied).
 */
public record PollState(boolean inFlight, int failures, Instant nextAttempt, Fingerprint fingerprint, Instant lastPublished,
        long lastSequence) {

    public static final PollState NEW = new PollState(false, 0, Instant.EPOCH, null, Instant.EPOCH, 0);

    /** True if a read may start now. */
    public boolean due(Instant now) {
        return !inFlight && !now.isBefore(nextAttempt);
    }

    public PollState started() {
        return new PollState(true, failures, nextAttempt, fingerprint, lastPublished, lastSequence);
    }

    /** The read answered: reads go on at the poll interval. */
    public PollState answered() {
        return new PollState(false, 0, Instant.EPOCH, fingerprint, lastPublished, lastSequence);
    }

    /** The read failed: the next waits {@code initial x 2^(failures-1)}, at most {@code max}. */
    public PollState failed(Instant now, Duration initial, Duration max) {
        int failed = failures + 1;
        Duration wait = initial.multipliedBy(1L << Math.min(20, failed - 1));
        return new PollState(false, failed, now.plus(wait.compareTo(max) > 0 ? max : wait), fingerprint, lastPublished, lastSequence);
    }

    /** True if a snapshot with this content is news, or the heartbeat is due. */
    public boolean publishes(Fingerprint content, Instant now, Duration heartbeat) {
        return !content.equals(fingerprint) || !now.isBefore(lastPublished.plus(heartbeat));
    }

    /** The state once a snapshot of {@code content} observed at {@code now} is published; its sequence is {@link #lastSequence()}. */
    public PollState published(Fingerprint content, Instant now, long appliedSequence) {
        long sequence = Math.max(Math.max(lastSequence + 1, appliedSequence + 1), now.toEpochMilli());
        return new PollState(inFlight, failures, nextAttempt, content, now, sequence);
    }
}
