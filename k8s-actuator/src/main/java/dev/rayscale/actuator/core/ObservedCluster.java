package dev.rayscale.actuator.core;

import java.util.List;
import java.util.Map;

/**
 * A RayCluster as the actuator read it, in the terms its decisions need: immutable, so that planning
 * what to drain and patch is a function of the decision, this observation and the time.
 *
 * @param generation its {@code metadata.generation} as read (null if the API server gave none): any change of its spec
 *     raises it, so a write that tests it lands only on the spec as read
 * @param annotated whether {@code metadata.annotations} exists (a patch adds to it, or creates it)
 * @param optedIn whether it still carries {@code rayscale.dev/autoscaling: "enabled"}
 * @param inTreeAutoscaling whether {@code spec.enableInTreeAutoscaling} is true: Ray's own autoscaler runs beside it
 * @param mark the newest decision applied to it (the actuator's annotations)
 * @param dryRun the cluster asks for dry runs ({@code rayscale.dev/dry-run: "true"})
 * @param groups {@code spec.workerGroupSpecs}, in order
 * @param pods the cluster's pods by name (empty if they were not read)
 * @param liveNodes the Ray nodes the GCS holds alive, from a GCS read made after the RayCluster's ({@link LiveNodes}); null
 *     when the GCS was not read or could not be
 * @param otherWrite its replicas or workersToDelete as someone other than Rayscale changed them since Rayscale last wrote
 *     them ({@link WrittenGroups}); null if no one did
 */
public record ObservedCluster(
        String namespace,
        String name,
        String uid,
        String resourceVersion,
        Long generation,
        boolean annotated,
        boolean optedIn,
        boolean inTreeAutoscaling,
        AppliedMark mark,
        boolean dryRun,
        List<ObservedGroup> groups,
        Map<String, ObservedPod> pods,
        LiveNodes liveNodes,
        OtherWrite otherWrite) {

    public ObservedCluster {
        groups = List.copyOf(groups);
        pods = Map.copyOf(pods);
    }

    public String id() {
        return namespace + "/" + name;
    }

    public ObservedCluster withPods(Map<String, ObservedPod> now) {
        return new ObservedCluster(namespace, name, uid, resourceVersion, generation, annotated, optedIn, inTreeAutoscaling, mark, dryRun,
                groups, now, liveNodes, otherWrite);
    }

    /** As observed, with the GCS's live nodes as read; {@code nodes} null if the GCS could not be read. */
    public ObservedCluster withLiveNodes(LiveNodes nodes) {
        return new ObservedCluster(namespace, name, uid, resourceVersion, generation, annotated, optedIn, inTreeAutoscaling, mark, dryRun,
                groups, pods, nodes, otherWrite);
    }

    /**
     * One worker group.
     *
     * @param replicas {@code replicas} as written, null if absent
     * @param workersToDeleteSet whether {@code scaleStrategy.workersToDelete} is present (a test op needs it to exist)
     */
    public record ObservedGroup(String name, Integer replicas, int min, int max, int hosts, List<String> workersToDelete,
            boolean workersToDeleteSet) {

        public ObservedGroup {
            workersToDelete = List.copyOf(workersToDelete);
        }

        public int replicasOrZero() {
            return replicas == null ? 0 : replicas;
        }
    }

    /**
     * One pod of the cluster.
     *
     * @param replica the multi-host replica it belongs to; for a single-host group, its own name
     * @param terminating it has a deletionTimestamp; the operator still counts it (fact B6.28)
     */
    public record ObservedPod(String name, String group, String replica, String phase, boolean terminating) {
    }
}
