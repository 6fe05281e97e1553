package dev.rayscale.collector;

import dev.rayscale.collector.assembly.GcsRead;
import dev.rayscale.collector.assembly.Fingerprint;
import dev.rayscale.collector.assembly.RayPod;
import dev.rayscale.events.KubernetesSource;
import io.ray.v1.RayCluster;
import java.time.Instant;
import java.util.List;

/**
 * One cluster as read at one moment, immutable: the RayCluster and its pods as the informers hold them, whether
 * those are current, and its GCS's answer (or why there is none). Everything a snapshot is assembled from.
 */
record Observation(String id, RayCluster cluster, List<RayPod> pods, GcsRead gcs, KubernetesSource kubernetes, Instant observedAt) {

    Observation {
        pods = List.copyOf(pods);
    }

    /** The kind of GCS failure (a gRPC status code name, INVALID_REPLY or CLIENT_ERROR); null if it answered. */
    String gcsErrorCode() {
        return gcs instanceof GcsRead.Failed failed ? failed.code() : null;
    }

    /** What decides whether this observation is news. */
    Fingerprint fingerprint() {
        return Fingerprint.of(cluster, pods, gcs);
    }
}
