package dev.rayscale.tune;

import dev.rayscale.events.ClusterSnapshot;
import dev.rayscale.events.ScalingPolicy;
import dev.rayscale.events.WorkerGroup;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The policy a recording was made under, put on a replay's snapshots: the cluster's {@code policy} whole (annotations such
 * as the upscaling speed or packing included, which the simulated RayCluster does not carry) and each group's bounds, idle
 * timeout and node cost.
 */
final class RecordedPolicy {

    private final ScalingPolicy policy;
    private final Map<String, WorkerGroup> groups = new HashMap<>();

    RecordedPolicy(ClusterSnapshot recorded) {
        this.policy = recorded.policy();
        recorded.workerGroups().forEach(group -> groups.put(group.name(), group));
    }

    ClusterSnapshot apply(ClusterSnapshot snapshot) {
        List<WorkerGroup> workerGroups = snapshot.workerGroups().stream().map(this::apply).toList();
        return new ClusterSnapshot(snapshot.schemaVersion(), snapshot.id(), snapshot.cluster(), snapshot.sequence(), snapshot.observedAt(),
                snapshot.sources(), policy, snapshot.headGroup(), workerGroups, snapshot.nodes(), snapshot.pendingPods(), snapshot.demand(),
                snapshot.versions());
    }

    private WorkerGroup apply(WorkerGroup group) {
        WorkerGroup recorded = groups.get(group.name());
        if (recorded == null) {
            return group;
        }
        return new WorkerGroup(group.name(), group.index(), group.replicas(), recorded.minReplicas(), recorded.maxReplicas(), group.numOfHosts(),
                group.resources(), group.labels(), group.workersToDelete(), recorded.idleTimeoutSeconds(), group.suspended(),
                group.terminatingPods(), group.launchFailure(), recorded.nodeCost());
    }
}
