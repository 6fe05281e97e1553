package dev.rayscale.audit;

import dev.rayscale.events.ClusterSnapshot;
import dev.rayscale.events.RayscaleEvent;
import dev.rayscale.events.codec.EventCodec;

/** A recorded record, read as the services read it: an event, a dead letter, or something that is neither. */
public sealed interface Read {

    Recorded origin();

    /**
     * A valid Rayscale event under its own cluster's key: a decision or an actuation result.
     *
     * @param answered for a decision, the snapshot it answered, read whole while reading (see {@link SnapshotJoin}); null
     *     when it was not among its cluster's newest snapshots, or not looked for
     */
    record Event(Recorded origin, RayscaleEvent event, ClusterSnapshot answered) implements Read {

        public Event(Recorded origin, RayscaleEvent event) {
            this(origin, event, null);
        }
    }

    /**
     * A snapshot under its own cluster's key: its head, and the whole snapshot when it was read strictly (else
     * {@link #full()} reads it from the record).
     */
    record Snapshot(Recorded origin, SnapshotHead head, ClusterSnapshot read) implements Read {

        /** The whole snapshot. */
        public ClusterSnapshot full() {
            return read != null ? read : EventCodec.SNAPSHOTS.bind(origin.value());
        }
    }

    /**
     * A record a service set aside: why, and where it was.
     *
     * @param truncatedFrom the original value's length when only its start was kept, or -1
     */
    record DeadLetter(Recorded origin, String reason, String cause, String fromTopic, String fromPartition, String fromOffset,
            long truncatedFrom) implements Read {

        public String from() {
            return fromTopic + "/" + fromPartition + "@" + fromOffset;
        }
    }

    /** Not a Rayscale event, an unknown schema version, a line that is not a record: with why. */
    record Unreadable(Recorded origin, String reason) implements Read {
    }
}
