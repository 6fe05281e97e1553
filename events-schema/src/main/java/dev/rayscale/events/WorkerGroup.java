package dev.rayscale.events;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.math.BigDecimal;
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
 * @param terminatingPods the group's pods being deleted (deletionTimestamp set) and not yet gone; the
 *     operator still counts them towards the group's size (fact B6.28)
 * @param launchFailure why the operator cannot create this group's pods (its ReplicaFailure condition,
 *     fact B9.34); absent while pods can be created
 * @param nodeCost what one node of the group costs, in any unit the cluster's groups share (say, price per
 *     hour), from {@code rayscale.dev/node-cost} on the group's pod template; absent means a default from its
 *     resources
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
        boolean suspended,
        @JsonInclude(JsonInclude.Include.NON_EMPTY) List<String> terminatingPods,
        String launchFailure,
        BigDecimal nodeCost) {

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
        terminatingPods = Fields.list(terminatingPods);
        if (nodeCost != null && nodeCost.signum() <= 0) {
            throw new IllegalArgumentException("workerGroups.nodeCost must be positive, was " + nodeCost);
        }
    }

    public WorkerGroup(String name, int index, int replicas, int minReplicas, int maxReplicas, int numOfHosts, Resources resources,
            Map<String, String> labels, List<String> workersToDelete, Long idleTimeoutSeconds, boolean suspended, List<String> terminatingPods,
            String launchFailure) {
        this(name, index, replicas, minReplicas, maxReplicas, numOfHosts, resources, labels, workersToDelete, idleTimeoutSeconds,
                suspended, terminatingPods, launchFailure, null);
    }

    public WorkerGroup(String name, int index, int replicas, int minReplicas, int maxReplicas, int numOfHosts, Resources resources,
            Map<String, String> labels, List<String> workersToDelete, Long idleTimeoutSeconds, boolean suspended) {
        this(name, index, replicas, minReplicas, maxReplicas, numOfHosts, resources, labels, workersToDelete, idleTimeoutSeconds,
                suspended, List.of(), null, null);
    }
}
