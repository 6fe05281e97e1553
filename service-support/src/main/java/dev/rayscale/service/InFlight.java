package dev.rayscale.service;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * The batches a consumer is handling, so that shutting down can let them finish while the beans they call are still
 * there, and take no new ones. Without it a batch under way when the service is stopped (a rolling update, a
 * rebalance) calls into a container already shut down, and its decisions fail with "ArC container not initialized".
 * A batch refused while stopping is left unacknowledged: the member that takes its partition over reads it again.
 */
public final class InFlight {

    private final ReadWriteLock lock = new ReentrantReadWriteLock();

    /** Handles the batch unless the service is stopping; says whether it did. */
    public boolean run(Runnable batch) {
        if (!lock.readLock().tryLock()) {
            return false;
        }
        try {
            batch.run();
            return true;
        } finally {
            lock.readLock().unlock();
        }
    }

    /** Takes no new batch from now on and waits, at most {@code patience}, for those under way; says whether they all ended. */
    public boolean drain(Duration patience) {
        try {
            return lock.writeLock().tryLock(patience.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
