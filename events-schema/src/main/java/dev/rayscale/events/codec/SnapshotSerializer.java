package dev.rayscale.events.codec;

import dev.rayscale.events.ClusterSnapshot;

/** Kafka serializer for {@link ClusterSnapshot} events. */
public class SnapshotSerializer extends EventSerializer<ClusterSnapshot> {

    public SnapshotSerializer() {
        super(EventCodec.SNAPSHOTS);
    }
}
