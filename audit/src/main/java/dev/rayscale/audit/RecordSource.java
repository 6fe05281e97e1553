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

    /** Where it reads from, for messages. */
    String describe();

    @Override
    void close();
}
