package dev.rayscale.audit;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ForkJoinPool;
import java.util.function.Consumer;

/**
 * Reads records into events on every core and hands them on in their order: records are taken in batches,
 * read in parallel (the costly part: JSON and the events' own checks, and each decision's snapshot read whole,
 * {@link SnapshotJoin}) while the batch before is handed on, one by one, on the calling thread. What it holds is two
 * batches. {@link #close()} hands on what is left.
 */
public final class Reads implements Consumer<Recorded>, AutoCloseable {

    static final int BATCH = 256;
    /**
     * Where batches are read: a pool as wide as the machine, not the common pool (one thread narrower, which on two cores
     * leaves a batch's parallel reading one thread while the caller waits). The caller's own work (audit, replay) and
     * the reading then share the cores as each needs them.
     */
    static final ForkJoinPool POOL = new ForkJoinPool(Runtime.getRuntime().availableProcessors());

    private final EventReader reader;
    private final SnapshotJoin join = new SnapshotJoin();
    private final Consumer<Read> downstream;
    private List<Recorded> batch = new ArrayList<>(BATCH);
    private CompletableFuture<List<Read>> reading = CompletableFuture.completedFuture(List.of());

    public Reads(EventReader reader, Consumer<Read> downstream) {
        this.reader = reader;
        this.downstream = downstream;
    }

    @Override
    public void accept(Recorded record) {
        batch.add(record);
        if (batch.size() == BATCH) {
            flush();
        }
    }

    private void flush() {
        List<Recorded> full = batch;
        batch = new ArrayList<>(BATCH);
        // After the batch before: decisions are joined to their snapshots batch by batch, in order.
        CompletableFuture<List<Read>> next = reading.thenApplyAsync(previous -> reader.readAll(full, join), POOL);
        List<Read> before = reading.join();
        reading = next;
        before.forEach(downstream);
    }

    @Override
    public void close() {
        flush();
        reading.join().forEach(downstream);
        reading = CompletableFuture.completedFuture(List.of());
    }
}
