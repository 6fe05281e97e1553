package dev.rayscale.events;

import com.fasterxml.jackson.annotation.JsonIgnore;
import java.time.Instant;
import java.util.List;

/**
 * Everything the planner needs about one cluster at one instant, self-contained so that replaying
 * the snapshot topic reproduces every decision.
 *
 * <p>{@code nodes}, {@code pendingPods} and {@code demand} come from Ray's GCS and are {@code null}
 * exactly when {@code sources.gcs.status} is not {@code OK}: an unreadable GCS never looks like an idle
 * cluster with no demand.
 *
 * @param sequence per-cluster, strictly increasing, also across collector restarts
 * @param observedAt the instant the state was read; the planner's only clock
 * @param workerGroups in the order of {@code spec.workerGroupSpecs}
 * @param nodes every Ray node the GCS reports, the head included
 * @param pendingPods worker pods that exist in Kubernetes but have no Ray node yet
 * @param versions the Ray and KubeRay the cluster runs and what Rayscale does there; absent in snapshots written before it
 *     was recorded, which read as {@link Support#FULL}
 */
public record ClusterSnapshot(
        int schemaVersion,
        String id,
        ClusterRef cluster,
        long sequence,
        Instant observedAt,
        SourceHealth sources,
        ScalingPolicy policy,
        HeadGroup headGroup,
        List<WorkerGroup> workerGroups,
        List<RayNode> nodes,
        List<PendingPod> pendingPods,
        Demand demand,
        ClusterVersions versions) implements RayscaleEvent {

    public static final int SCHEMA_VERSION = 1;

    public ClusterSnapshot {
        Fields.requiredText(id, "id");
        Fields.required(cluster, "cluster");
        Fields.notNegative(sequence, "sequence");
        Fields.required(observedAt, "observedAt");
        Fields.required(sources, "sources");
        Fields.required(policy, "policy");
        Fields.required(headGroup, "headGroup");
        workerGroups = Fields.list(workerGroups);
        if (sources.gcs().isAvailable()) {
            nodes = Fields.list(nodes);
            pendingPods = Fields.list(pendingPods);
            demand = demand == null ? Demand.NONE : demand;
        } else if (nodes != null || pendingPods != null || demand != null) {
            throw new IllegalArgumentException(
                    "nodes, pendingPods and demand must be absent when sources.gcs.status is " + sources.gcs().status());
        }
    }

    public ClusterSnapshot(int schemaVersion, String id, ClusterRef cluster, long sequence, Instant observedAt, SourceHealth sources,
            ScalingPolicy policy, HeadGroup headGroup, List<WorkerGroup> workerGroups, List<RayNode> nodes, List<PendingPod> pendingPods,
            Demand demand) {
        this(schemaVersion, id, cluster, sequence, observedAt, sources, policy, headGroup, workerGroups, nodes, pendingPods, demand, null);
    }

    /** What Rayscale does for the cluster; FULL when the snapshot does not say. */
    @JsonIgnore
    public Support support() {
        return versions == null ? Support.FULL : versions.support();
    }

    /** True if the Ray state (nodes, pending pods, demand) was read; false means it is unknown. */
    @JsonIgnore
    public boolean hasRayState() {
        return sources.gcs().isAvailable();
    }

    @Override
    @JsonIgnore
    public Instant time() {
        return observedAt;
    }
}
