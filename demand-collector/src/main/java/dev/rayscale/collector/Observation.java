package dev.rayscale.collector;

import dev.rayscale.collector.assembly.GcsRead;
import dev.rayscale.collector.assembly.Fingerprint;
import dev.rayscale.collector.assembly.RayPod;
import dev.rayscale.collector.assembly.SupportMatrix;
import dev.rayscale.events.KubernetesSource;
import io.ray.v1.RayCluster;
import java.time.Instant;
import java.util.List;

/**
 * One cluster as read at one moment, immutable: the RayCluster and its pods as the informers hold them, whether
 * those are current, its GCS's answer (or why there is none), the Ray version its head recorded in the GCS (null if
 * not read), and why the request_resources floor in the GCS's KV was refused (null if it was not). Everything a snapshot is
 * assembled from.
 */
record Observation(String id, RayCluster cluster, List<RayPod> pods, GcsRead gcs, KubernetesSource kubernetes, Instant observedAt,
        String gcsRayVersion, String floorRefused) {

    Observation {
        pods = List.copyOf(pods);
    }

    /** The kind of GCS failure (a gRPC status code name, INVALID_REPLY or CLIENT_ERROR); null if it answered. */
    String gcsErrorCode() {
        return gcs instanceof GcsRead.Failed failed ? failed.code() : null;
    }

    /** What Rayscale does for the cluster, given the versions it runs. */
    SupportMatrix.Assessment support() {
        return SupportMatrix.assess(cluster, pods, gcsRayVersion, gcs instanceof GcsRead.Failed failed && GcsRead.NO_AUTOSCALER_SERVICE.equals(failed.code()));
    }

    /** What decides whether this observation is news. */
    Fingerprint fingerprint() {
        return Fingerprint.of(cluster, pods, gcs, gcsRayVersion).andNotReconciled(kubernetes.notReconciled() != null);
    }
}
