package dev.rayscale.audit;

import dev.rayscale.events.RayscaleEvent;

/** A recorded record, read as the services read it: an event, a dead letter, or something that is neither. */
public sealed interface Read {

    Recorded origin();

    /** A valid Rayscale event under its own cluster's key. */
    record Event(Recorded origin, RayscaleEvent event) implements Read {
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
