package dev.rayscale.events;

import java.util.List;

/**
 * What was done to one worker group.
 *
 * @param workersToDelete the pods added to {@code scaleStrategy.workersToDelete} (their drains were accepted)
 * @param drainRejected pods the decision named whose drain Ray refused; they were kept
 */
public record GroupActuation(
        String name,
        int replicasBefore,
        int replicasAfter,
        List<String> workersToDelete,
        List<DrainRejection> drainRejected) {

    public GroupActuation {
        Fields.requiredText(name, "groups.name");
        Fields.notNegative(replicasBefore, "groups.replicasBefore");
        Fields.notNegative(replicasAfter, "groups.replicasAfter");
        workersToDelete = Fields.list(workersToDelete);
        drainRejected = Fields.list(drainRejected);
    }
}
