package dev.rayscale.events;

import com.fasterxml.jackson.annotation.JsonIgnore;
import java.util.List;

/**
 * What one worker group should become.
 *
 * @param index position in {@code spec.workerGroupSpecs} the decision assumed
 * @param currentReplicas the {@code replicas} the decision assumed
 * @param targetReplicas the {@code replicas} to set, within min and max
 * @param currentWorkersToDelete the {@code scaleStrategy.workersToDelete} the decision assumed
 * @param toDelete pods to remove; {@code targetReplicas} already accounts for them
 * @param notes what held this group back (limits reached, busy nodes over max, ...)
 */
public record GroupTarget(
        String name,
        int index,
        int currentReplicas,
        int targetReplicas,
        List<String> currentWorkersToDelete,
        List<PodDeletion> toDelete,
        List<String> notes) {

    public GroupTarget {
        Fields.requiredText(name, "groups.name");
        Fields.notNegative(index, "groups.index");
        Fields.notNegative(currentReplicas, "groups.currentReplicas");
        Fields.notNegative(targetReplicas, "groups.targetReplicas");
        currentWorkersToDelete = Fields.list(currentWorkersToDelete);
        toDelete = Fields.list(toDelete);
        notes = Fields.list(notes);
    }

    @JsonIgnore
    public boolean changesAnything() {
        return targetReplicas != currentReplicas || !toDelete.isEmpty();
    }
}
