package dev.rayscale.audit;

import dev.rayscale.events.CloudEventHeaders;
import dev.rayscale.events.RayscaleEvent;
import dev.rayscale.events.codec.ActuationDeserializer;
import dev.rayscale.events.codec.DecisionDeserializer;
import dev.rayscale.events.codec.EventDeserializer;
import dev.rayscale.events.codec.SnapshotDeserializer;

/** Reads a record exactly as the consuming service would: CloudEvents headers checked, schema validated, the key matching the event's cluster. */
public final class EventReader {

    private final EventDeserializer<?> snapshots = new SnapshotDeserializer();
    private final EventDeserializer<?> decisions = new DecisionDeserializer();
    private final EventDeserializer<?> actuations = new ActuationDeserializer();

    public Read read(Recorded record) {
        if (record.problem() != null) {
            return new Read.Unreadable(record, record.problem());
        }
        return switch (record.kind()) {
            case SNAPSHOT -> event(record, snapshots);
            case DECISION -> event(record, decisions);
            case ACTUATION -> event(record, actuations);
            case DEAD_LETTER -> deadLetter(record);
            case OTHER -> new Read.Unreadable(record, "not on a Rayscale topic");
        };
    }

    private static Read event(Recorded record, EventDeserializer<?> reader) {
        try {
            RayscaleEvent event = record.data() != null ? reader.deserialize(record.headers(), record.data())
                    : reader.deserialize(record.topic(), record.headers(), record.value());
            if (record.key() != null && !record.key().equals(event.cluster().id())) {
                return new Read.Unreadable(record, "the key " + record.key() + " names another cluster than the event's " + event.cluster().id());
            }
            return new Read.Event(record, event);
        } catch (RuntimeException | StackOverflowError unreadable) {
            return new Read.Unreadable(record, unreadable.getMessage() == null ? unreadable.toString() : unreadable.getMessage());
        }
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
