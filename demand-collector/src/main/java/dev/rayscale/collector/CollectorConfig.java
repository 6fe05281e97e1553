package dev.rayscale.collector;

import dev.rayscale.clients.GcsClientConfig;
import dev.rayscale.kuberay.RayLabels;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/** Everything the demand collector can be told, under {@code rayscale.collector}. */
@ConfigMapping(prefix = "rayscale.collector")
public interface CollectorConfig {

    /** Namespaces to watch for opted-in RayClusters; all namespaces when unset. */
    Optional<List<String>> namespaces();

    /** How often each cluster's GCS is read. */
    @WithDefault("1s")
    Duration pollInterval();

    /** A snapshot is published at least this often per cluster, changed or not, so that idle timers advance. */
    @WithDefault("5s")
    Duration heartbeat();

    /**
     * How long KubeRay may leave a RayCluster's spec unreconciled ({@code status.observedGeneration} behind
     * {@code metadata.generation}) before the cluster's size is held, with a Warning Event {@code SpecNotReconciled}: KubeRay
     * stops at a spec it finds invalid, and replicas written then change nothing. A healthy operator catches up in seconds.
     */
    @WithDefault("60s")
    Duration notReconciledAfter();

    /**
     * How many opted-in RayClusters of one namespace this collector serves; beyond it, the newest are left alone with a
     * Warning Event {@code TooManyClustersInNamespace}, so that one namespace cannot crowd out the others.
     */
    @WithDefault("500")
    int maxClustersPerNamespace();

    /** The pod label that names a multi-host replica (pods of one replica share its value). */
    @WithDefault(RayLabels.REPLICA)
    String replicaLabel();

    /** Reading the Ray GCS. */
    Gcs gcs();

    /** Splitting clusters among collector replicas. */
    Shard shard();

    /** Where and how each cluster's GCS is reached ({@link GcsClientConfig}: port, deadline, TLS), and how often it is read. */
    interface Gcs extends GcsClientConfig {

        /** At most this many GCS calls in flight at once, over all clusters. */
        @WithDefault("64")
        int maxConcurrentCalls();

        /**
         * At most this many of them for one namespace's clusters: a namespace whose GCSs do not answer (each call holds its
         * slot until the deadline) takes its share of the calls, not all of them. Namespaces are served in turn.
         */
        @WithDefault("16")
        int maxConcurrentCallsPerNamespace();

        /** First wait after a failed read; doubles per consecutive failure. */
        @WithDefault("1s")
        Duration backoffInitial();

        /** Longest wait between reads of a failing GCS. */
        @WithDefault("30s")
        Duration backoffMax();

        /**
         * Set Ray's client switch ({@code __autoscaler_v2_enabled} in the GCS's KV) to "1" on every GCS process, so that
         * {@code ray status} shows what Rayscale reports and {@code request_resources} reaches the GCS (docs/ray-versions.md,
         * "ray status"). Off: clients take the v1 path, where {@code ray status} shows only the head's read-only monitor.
         */
        @WithDefault("true")
        boolean clientSwitch();
    }

    interface Shard {

        /** How many collector replicas split the clusters (a StatefulSet's replica count). */
        @WithDefault("1")
        int count();

        /** This replica's number, 0-based; when unset, the trailing number of the host name (StatefulSet pod name), else 0. */
        Optional<Integer> ordinal();
    }
}
