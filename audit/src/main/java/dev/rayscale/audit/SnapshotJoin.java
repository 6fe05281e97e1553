package dev.rayscale.audit;

import dev.rayscale.events.ScaleDecision;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Gives each decision the snapshot it answered, read whole, while the records are read on the other cores: reading a
 * snapshot whole is the costliest step of following a decision, and done where the events are consumed it would hold
 * back the one thread that must take them in order. Holds the newest {@value Auditor#READABLE} snapshots of each
 * cluster ({@link HeldSnapshots}); batches must be joined one after the other, in the records' order.
 */
final class SnapshotJoin {

    private final Map<String, HeldSnapshots> clusters = new HashMap<>();

    /** The batch, in its order, each decision whose snapshot is held now carrying it. */
    List<Read> join(List<Read> batch) {
        List<Read> joined = new ArrayList<>(batch.size());
        for (Read read : batch) {
            if (read instanceof Read.Snapshot snapshot) {
                clusters.computeIfAbsent(snapshot.head().cluster().id(), id -> new HeldSnapshots(Auditor.READABLE)).add(snapshot, evicted -> {
                });
                joined.add(read);
            } else if (read instanceof Read.Event event && event.event() instanceof ScaleDecision decision) {
                HeldSnapshots held = clusters.get(decision.cluster().id());
                joined.add(new Read.Event(event.origin(), decision, held == null ? null : held.full(decision.snapshotId())));
            } else {
                joined.add(read);
            }
        }
        return joined;
    }
}
