package dev.rayscale.events;

import java.util.List;
import java.util.Map;

/**
 * One entry of {@code spec.workerGroupSpecs}, as the collector read it.
 *
 * @param index position in {@code spec.workerGroupSpecs}; the actuator patches that index and tests the name
 * @param replicas {@code replicas}, the number of replicas asked for (a replica is {@code numOfHosts} pods)
 * @param numOfHosts Ray nodes (pods) per replica; 1 unless the group is multi-host
 * @param resources per-node resources as Ray derives them from {@code rayStartParams} and the container
 * @param labels Ray node labels every node of the group carries
 * @param workersToDelete {@code scaleStrategy.workersToDelete}: pods named for deletion and not yet gone
 * @param idleTimeoutSeconds per-group {@code idleTimeoutSeconds}; absent means the cluster's
 * @param suspended {@code suspend}: a suspended group is never scaled
 */
public record WorkerGroup(
        String name,
        int index,
        int replicas,
        int minReplicas,
        int maxReplicas,
        int numOfHosts,
        Resources resources,
        Map<String, String> labels,
        List<String> workersToDelete,
        Long idleTimeoutSeconds,
        boolean suspended) {

    public WorkerGroup {
        Fields.requiredText(name, "workerGroups.name");
        Fields.notNegative(index, "workerGroups.index");
        Fields.notNegative(replicas, "workerGroups.replicas");
        Fields.notNegative(minReplicas, "workerGroups.minReplicas");
        Fields.notNegative(maxReplicas, "workerGroups.maxReplicas");
        Fields.positive(numOfHosts, "workerGroups.numOfHosts");
        resources = resources == null ? Resources.NONE : resources;
        labels = Fields.labels(labels);
        workersToDelete = Fields.list(workersToDelete);
    }
}
