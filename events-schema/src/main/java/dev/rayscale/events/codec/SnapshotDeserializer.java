package dev.rayscale.events.codec;

import dev.rayscale.events.ClusterSnapshot;

/** Kafka deserializer for {@link ClusterSnapshot} events. */
public class SnapshotDeserializer extends EventDeserializer<ClusterSnapshot> {

    public SnapshotDeserializer() {
        super(EventCodec.SNAPSHOTS);
    }
}
