package dev.rayscale.audit;

import dev.rayscale.events.CloudEventHeaders;
import dev.rayscale.events.ClusterSnapshot;
import dev.rayscale.events.RayscaleEvent;
import dev.rayscale.events.codec.ActuationDeserializer;
import dev.rayscale.events.codec.DecisionDeserializer;
import dev.rayscale.events.codec.EventDeserializer;
import dev.rayscale.events.codec.SnapshotDeserializer;
import java.util.List;

/**
 * Reads a record as the consuming service would: CloudEvents headers checked, the key matching the event's
 * cluster, and, when strict, the JSON Schema validated. Not strict, the schema check is left out for speed
 * (what the services could not read is on their dead-letter topics, which the audit reports); the JSON,
 * the schema version and every field the events require are still checked. Safe for several threads.
 */
public final class EventReader {

    private final boolean strict;

    public EventReader(boolean strict) {
        this.strict = strict;
    }

    private final SnapshotDeserializer snapshots = new SnapshotDeserializer();
    private final EventDeserializer<?> decisions = new DecisionDeserializer();
    private final EventDeserializer<?> actuations = new ActuationDeserializer();

    /**
     * Reads a batch on every core, then joins each decision to its snapshot ({@link SnapshotJoin}): call it for the
     * batches one after the other, in order.
     */
    List<Read> readAll(List<Recorded> batch, SnapshotJoin join) {
        return join.join(batch.parallelStream().map(this::read).toList());
    }

    public Read read(Recorded record) {
        if (record.problem() != null) {
            return new Read.Unreadable(record, record.problem());
        }
        return switch (record.kind()) {
            case SNAPSHOT -> snapshot(record);
            case DECISION -> event(record, decisions, strict);
            case ACTUATION -> event(record, actuations, strict);
            case DEAD_LETTER -> deadLetter(record);
            case OTHER -> new Read.Unreadable(record, "not on a Rayscale topic");
        };
    }

    private static Read event(Recorded record, EventDeserializer<?> reader, boolean strict) {
        try {
            RayscaleEvent event = reader.read(record.headers(), record.value(), strict);
            String otherKey = otherKey(record, event.cluster().id());
            return otherKey != null ? new Read.Unreadable(record, otherKey) : new Read.Event(record, event);
        } catch (RuntimeException | StackOverflowError unreadable) {
            return unreadable(record, unreadable);
        }
    }

    /** A snapshot: read whole when strict, else only its head (the whole is read if a decision answered it). */
    private Read snapshot(Recorded record) {
        try {
            ClusterSnapshot whole = strict ? snapshots.read(record.headers(), record.value(), true) : null;
            SnapshotHead head = whole != null ? SnapshotHead.of(whole) : SnapshotHead.scan(record.value());
            if (whole == null) {
                snapshots.checkHeaders(record.headers(), head.id(), head.cluster().id());
            }
            String otherKey = otherKey(record, head.cluster().id());
            return otherKey != null ? new Read.Unreadable(record, otherKey) : new Read.Snapshot(record, head, whole);
        } catch (RuntimeException | StackOverflowError unreadable) {
            return unreadable(record, unreadable);
        }
    }

    private static String otherKey(Recorded record, String cluster) {
        return record.key() != null && !record.key().equals(cluster)
                ? "the key " + record.key() + " names another cluster than the event's " + cluster : null;
    }

    private static Read unreadable(Recorded record, Throwable error) {
        return new Read.Unreadable(record, error.getMessage() == null ? error.toString() : error.getMessage());
    }

    private static Read deadLetter(Recorded record) {
        String truncated = CloudEventHeaders.read(record.headers(), "dead-letter-truncated");
        long truncatedFrom;
        try {
            truncatedFrom = truncated == null ? -1 : Long.parseLong(truncated);
        } catch (NumberFormatException notANumber) {
            truncatedFrom = -1;
        }
        return new Read.DeadLetter(record, header(record, "dead-letter-reason"), header(record, "dead-letter-cause"),
                header(record, "dead-letter-topic"), header(record, "dead-letter-partition"), header(record, "dead-letter-offset"),
                truncatedFrom);
    }

    private static String header(Recorded record, String name) {
        String value = CloudEventHeaders.read(record.headers(), name);
        return value == null ? "?" : value;
    }
}
