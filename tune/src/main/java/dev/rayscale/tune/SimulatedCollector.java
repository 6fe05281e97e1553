package dev.rayscale.tune;

import dev.rayscale.collector.assembly.GcsRead;
import dev.rayscale.collector.assembly.RayPod;
import dev.rayscale.collector.assembly.RayState;
import dev.rayscale.collector.assembly.SnapshotAssembler;
import dev.rayscale.collector.assembly.SupportMatrix;
import dev.rayscale.events.ClusterSnapshot;
import dev.rayscale.events.KubernetesSource;
import dev.rayscale.gcs.proto.ClusterResourceState;
import dev.rayscale.kuberay.RayLabels;
import dev.rayscale.sim.ClusterSimulator;
import io.grpc.StatusRuntimeException;
import io.ray.v1.RayCluster;
import java.time.Instant;
import java.util.List;

/**
 * What the demand-collector reads of a simulated cluster, read in process: the RayCluster and its pods from the
 * simulated API server, the GCS's autoscaler state from its simulated GCS, joined by the collector's own assembly.
 */
final class SimulatedCollector {

    private final ClusterSimulator cluster;
    /** What the simulated head records in the GCS as its Ray version, which the collector reads there. */
    private final String rayVersion;
    private long lastVersion;
    private long sequence;

    SimulatedCollector(ClusterSimulator cluster, String rayVersion) {
        this.cluster = cluster;
        this.rayVersion = rayVersion;
    }

    ClusterSnapshot observe(Instant observedAt) {
        RayCluster rayCluster = cluster.client().resources(RayCluster.class).inNamespace(cluster.namespace()).withName(cluster.name()).get();
        List<RayPod> pods = cluster.client().pods().inNamespace(cluster.namespace()).withLabel(RayLabels.CLUSTER, cluster.name()).list()
                .getItems().stream().map(pod -> RayPod.of(pod, RayLabels.REPLICA)).toList();
        GcsRead read;
        try {
            ClusterResourceState state = cluster.readGcs(lastVersion);
            lastVersion = state.getClusterResourceStateVersion();
            read = new GcsRead.Answered(RayState.of(state, SnapshotAssembler.replicas(pods)::get));
        } catch (StatusRuntimeException down) {
            read = new GcsRead.Failed(down.getStatus().getCode().name(), String.valueOf(down.getStatus().getDescription()));
        }
        long generation = rayCluster.getMetadata().getGeneration() == null ? 0 : rayCluster.getMetadata().getGeneration();
        KubernetesSource kubernetes = KubernetesSource.ok(rayCluster.getMetadata().getResourceVersion(), generation);
        SupportMatrix.Assessment support = SupportMatrix.assess(rayCluster, pods, rayVersion, false);
        return SnapshotAssembler.assemble(rayCluster, pods, read, kubernetes, observedAt, ++sequence, support.versions());
    }
}
