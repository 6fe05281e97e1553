package dev.rayscale.service;

import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import org.jboss.logging.Logger;

/**
 * A service's metric series kept per cluster (tagged {@code cluster}), removed once the cluster is gone from the service:
 * at once when the service knows it ({@link #forget}), or when nothing of the cluster has come for {@link #EXPIRY}, for a
 * consumer of events, which never learns of a deletion and whose partitions may move to another instance. Left, a gauge
 * would say its last figure for ever, and an alert on it fire for a cluster that is gone; counters would keep a series for
 * every cluster ever seen.
 */
public final class ClusterSeries implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(ClusterSeries.class);

    /** Far longer than the gap between a tracked cluster's events: the collector's heartbeat is 5 s by default. */
    public static final Duration EXPIRY = Duration.ofMinutes(5);

    private final MeterRegistry registry;
    private final List<String> names;
    private final Consumer<String> forgotten;
    private final LongSupplier nanoTime;
    /** Per cluster, when its last event was counted ({@link #nanoTime}). */
    private final Map<String, Long> lastSeen = new ConcurrentHashMap<>();
    private final ScheduledExecutorService sweeper = Executors.newSingleThreadScheduledExecutor(runnable -> {
        Thread thread = new Thread(runnable, "cluster-series-expiry");
        thread.setDaemon(true);
        return thread;
    });

    /**
     * @param names     the meters kept per cluster
     * @param forgotten told of each cluster forgotten, to drop what the service holds for its series
     */
    public ClusterSeries(MeterRegistry registry, LongSupplier nanoTime, Consumer<String> forgotten, String... names) {
        this.registry = registry;
        this.nanoTime = nanoTime;
        this.forgotten = forgotten;
        this.names = List.of(names);
    }

    /** Something of {@code cluster} was counted now. */
    public void seen(String cluster) {
        lastSeen.put(cluster, nanoTime.getAsLong());
    }

    /** Forgets, every tenth of {@link #EXPIRY}, the clusters not {@linkplain #seen seen} for the whole of it. */
    public void expireUnseen() {
        long every = EXPIRY.toMillis() / 10;
        sweeper.scheduleWithFixedDelay(this::sweep, every, every, TimeUnit.MILLISECONDS);
    }

    private void sweep() {
        try {
            forgetUnseenSince(nanoTime.getAsLong() - EXPIRY.toNanos());
        } catch (RuntimeException e) {
            // One failed sweep must not end the schedule (a scheduled task that throws is never run again).
            LOG.warn("a sweep of the per-cluster metric series failed; the next one retries", e);
        }
    }

    /** Forgets every cluster last {@linkplain #seen seen} before {@code cutoff} ({@link #nanoTime}). */
    public void forgetUnseenSince(long cutoff) {
        lastSeen.forEach((cluster, seen) -> {
            if (seen - cutoff < 0 && lastSeen.remove(cluster, seen)) {
                remove(cluster);
            }
        });
    }

    /** Removes {@code cluster}'s series now. */
    public void forget(String cluster) {
        lastSeen.remove(cluster);
        remove(cluster);
    }

    private void remove(String cluster) {
        forgotten.accept(cluster);
        for (String name : names) {
            registry.find(name).tag("cluster", cluster).meters().forEach(registry::remove);
        }
    }

    @Override
    public void close() {
        sweeper.shutdownNow();
    }
}
