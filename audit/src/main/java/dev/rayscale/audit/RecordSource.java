package dev.rayscale.audit;

import java.io.IOException;
import java.util.function.Consumer;

/**
 * Where recorded events come from, Kafka or an export file: every selected record, once, in time
 * order across topics and in its own order within a partition (so each cluster's events keep their
 * order). Streams: what it holds at once does not grow with the history.
 */
public interface RecordSource extends AutoCloseable {

    void forEach(Consumer<Recorded> sink) throws IOException;

    /**
     * Every selected record read as an event ({@link EventReader}), in the same order, the reading done on every core.
     * A source that already works in parallel batches (a file: its lines are parsed so) reads the events in the same pass.
     */
    default void forEachRead(EventReader reader, Consumer<Read> sink) throws IOException {
        try (Reads reads = new Reads(reader, sink)) {
            forEach(reads);
        }
    }

    /** Where it reads from, for messages. */
    String describe();

    @Override
    void close();
}
