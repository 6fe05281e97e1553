package dev.rayscale.service;

import io.smallrye.mutiny.Uni;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.jboss.logging.Logger;

/**
 * The offsets a consumer's commits failed to write, made again until the group has them.
 *
 * <p>SmallRye's throttled strategy counts an offset as done once it asks for its commit: when the commit fails (the
 * group rebalancing after its coordinator restarted answers {@code RebalanceInProgressException}), it logs "it will be
 * re-attempted" but commits the partition again only when a newer record of it is processed. A partition that then gets
 * no record kept its group one record behind for as long: a lag that never clears, and a record read again by the
 * partition's next reader. This makes the commit again: a while after it failed, and at once when a rebalance ends or
 * hands the partition over.
 *
 * <p>Only what is still the consumer's own is committed, and never below what the group already has: a partition that
 * went to another member is left to it (it reads on from the group's offset), and a newer commit is not undone.
 */
final class OwedCommits {

    /** How long a commit made again may hold the polling thread; one that does not end by then is tried again later. */
    private static final Duration WITHIN = Duration.ofSeconds(5);
    private static final Logger LOG = Logger.getLogger(OwedCommits.class);

    /** Runs an action with the Kafka consumer on its polling thread, the only thread that may use it. */
    interface PollingThread {
        Uni<Void> run(java.util.function.Consumer<Consumer<?, ?>> action);
    }

    private final PollingThread pollingThread;
    private final Duration retryAfter;
    private final Map<TopicPartition, OffsetAndMetadata> owed = new HashMap<>();
    private boolean retryScheduled;
    private boolean closed;

    /**
     * @param pollingThread where the consumer is used
     * @param retryAfter how long after a failure the commit is made again, unless a rebalance ends first
     */
    OwedCommits(PollingThread pollingThread, Duration retryAfter) {
        this.pollingThread = pollingThread;
        this.retryAfter = retryAfter;
    }

    /** A commit of these offsets failed: they are owed until committed, superseded, or no longer this consumer's. */
    synchronized void failed(Map<TopicPartition, OffsetAndMetadata> offsets) {
        offsets.forEach((partition, offset) -> owed.merge(partition, offset, OwedCommits::later));
        if (!retryScheduled) {
            scheduleRetry();
        }
    }

    /**
     * On the polling thread: commits what is owed of the partitions the consumer has, where the group is still behind it;
     * the rest is forgotten. Throws what the consumer throws, and then everything stays owed.
     */
    void settle(Consumer<?, ?> consumer) {
        Map<TopicPartition, OffsetAndMetadata> due;
        synchronized (this) {
            due = new HashMap<>(owed);
        }
        if (due.isEmpty()) {
            return;
        }
        Map<TopicPartition, OffsetAndMetadata> behind = new HashMap<>(due);
        Set<TopicPartition> assigned = consumer.assignment();
        behind.keySet().retainAll(assigned);
        if (!behind.isEmpty()) {
            Map<TopicPartition, OffsetAndMetadata> committed = consumer.committed(behind.keySet(), WITHIN);
            behind.entrySet().removeIf(entry -> {
                OffsetAndMetadata groups = committed.get(entry.getKey());
                return groups != null && groups.offset() >= entry.getValue().offset();
            });
        }
        if (!behind.isEmpty()) {
            consumer.commitSync(behind, WITHIN);
            LOG.infof("committed again what a failed commit left behind: %s", behind);
        }
        synchronized (this) {
            due.forEach(owed::remove);
        }
    }

    /** No commit is made again from now on: the consumer is closing. */
    synchronized void close() {
        closed = true;
    }

    private synchronized boolean closed() {
        return closed;
    }

    private synchronized void scheduleRetry() {
        if (closed) {
            return;
        }
        retryScheduled = true;
        Uni.createFrom().voidItem().onItem().delayIt().by(retryAfter)
                .chain(() -> closed() ? Uni.createFrom().voidItem() : pollingThread.run(this::settle))
                .subscribe().with(done -> retried(null), this::retried);
    }

    private synchronized void retried(Throwable failure) {
        retryScheduled = false;
        if (failure != null) {
            LOG.debugf(failure, "committing %s again failed; trying again in %s", owed, retryAfter);
        }
        if (!owed.isEmpty()) {
            scheduleRetry();
        }
    }

    private static OffsetAndMetadata later(OffsetAndMetadata one, OffsetAndMetadata other) {
        return one.offset() >= other.offset() ? one : other;
    }
}
