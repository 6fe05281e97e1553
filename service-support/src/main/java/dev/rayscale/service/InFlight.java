package dev.rayscale.service;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import org.jboss.logging.Logger;

/**
 * The batches a consumer is handling, so that shutting down can let them finish while the beans they call are still
 * there, and take no new ones. Without it a batch under way when the service is stopped (a rolling update, a
 * rebalance) calls into a container already shut down, and its decisions fail with "ArC container not initialized".
 * A batch refused while stopping is left unacknowledged: the member that takes its partition over reads it again.
 */
public final class InFlight {

    /** How long stopping waits for the batches under way: their calls are each bounded by their own timeouts. */
    public static final Duration PATIENCE = Duration.ofSeconds(20);
    private static final Logger LOG = Logger.getLogger(InFlight.class);

    private final ReadWriteLock lock = new ReentrantReadWriteLock();
    private final String records;
    private final String handled;

    /**
     * @param records what the batches hold, for the log ("decisions")
     * @param handled what is done to them ("applied")
     */
    public InFlight(String records, String handled) {
        this.records = records;
        this.handled = handled;
    }

    /**
     * A consumer's handling of one batch of {@code size} records: run unless the service is stopping, when it is left
     * unacknowledged (and logged at debug). Complete either way, so that the channel goes on.
     */
    public CompletionStage<Void> consume(int size, Runnable batch) {
        if (!run(batch)) {
            LOG.debugf("stopping: a batch of %d %s left unacknowledged for the partition's next reader", size, records);
        }
        return CompletableFuture.completedFuture(null);
    }

    /** At shutdown, while the beans the batches call are still there: {@link #drain} for {@link #PATIENCE}, warning if it ran out. */
    public void stop() {
        if (!drain(PATIENCE)) {
            LOG.warnf("stopping while %s are still being %s after %s; those not yet acknowledged are %s again by the partition's "
                    + "next reader", records, handled, PATIENCE, handled);
        }
    }

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
