package dev.rayscale.audit;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

/**
 * Reads records into events on every core and hands them on in their order: records are taken in batches,
 * read in parallel (the costly part: JSON and the events' own checks) while the batch before is handed on,
 * one by one, on the calling thread. What it holds is two batches. {@link #close()} hands on what is left.
 */
public final class Reads implements Consumer<Recorded>, AutoCloseable {

    static final int BATCH = 512;

    private final EventReader reader;
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
        CompletableFuture<List<Read>> next = CompletableFuture.supplyAsync(() -> full.parallelStream().map(reader::read).toList());
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
