package dev.rayscale.events;

import java.time.Instant;

/** What every Rayscale event carries, and what its CloudEvents headers are made of. */
public interface RayscaleEvent {

    /** The version of this event's schema; a reader rejects versions it does not know. */
    int schemaVersion();

    /** Unique id of this event (the CloudEvents {@code ce_id}). */
    String id();

    /** The cluster it is about; its {@link ClusterRef#id()} is the Kafka key and {@code ce_subject}. */
    ClusterRef cluster();

    /** When the fact it reports was true (the CloudEvents {@code ce_time}). */
    Instant time();
}
