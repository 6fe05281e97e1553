package dev.rayscale.actuator.core;

import java.util.List;

/**
 * A change of {@code replicas} or {@code workersToDelete} that Rayscale did not write: the RayCluster differs from what
 * Rayscale last wrote to it ({@link WrittenGroups}).
 *
 * @param manager who wrote it, as the API server's {@code managedFields} name it: the manager that owns
 *     {@code spec.workerGroupSpecs} (an atomic list, so its last writer owns it whole); "an unnamed writer" when none does
 * @param fields what changed, e.g. {@code small-group replicas 5 -> 2}
 */
public record OtherWrite(String manager, List<String> fields) {

    public OtherWrite {
        fields = List.copyOf(fields);
    }

    public String describe() {
        return manager + " changed " + String.join("; ", fields);
    }
}
