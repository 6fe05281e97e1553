package dev.rayscale.actuator;

import dev.rayscale.clients.GcsClientConfig;
import dev.rayscale.kuberay.RayLabels;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;

/** Everything the k8s actuator can be told, under {@code rayscale.actuator}. */
@ConfigMapping(prefix = "rayscale.actuator")
public interface ActuatorConfig {

    /**
     * Do everything but patch RayClusters and drain Ray nodes: results and events still say what would
     * have been done. A cluster can ask for it alone with the annotation {@code rayscale.dev/dry-run: "true"}.
     */
    @WithDefault("false")
    boolean dryRun();

    /** Patch attempts per decision when the API server fails (5xx, timeouts); conflicts are never retried. */
    @WithDefault("3")
    int patchAttempts();

    /** Wait before the second patch attempt; doubles per attempt. */
    @WithDefault("200ms")
    Duration patchBackoff();

    /**
     * How many clusters' decisions are applied at once (a decision mostly waits on the API server and the GCS). One
     * cluster's decisions are always applied one after another, in order. At 1,000 clusters ({@code ./rayscale bench})
     * 16 halved the actuator's backlog against 8; 48 did no better than 16.
     */
    @WithDefault("16")
    int clustersInParallel();

    /**
     * How many of them one namespace's clusters may hold while others may need them (more only while a share's worth of the
     * workers would stay free): clusters whose API calls or GCSs are slow hold their workers until their deadlines, and one
     * namespace's must not take every worker.
     */
    @WithDefault("4")
    int clustersInParallelPerNamespace();

    /** The pod label that names a multi-host replica (pods of one replica share its value). */
    @WithDefault(RayLabels.REPLICA)
    String replicaLabel();

    /** Another writer of a cluster's replicas or workersToDelete (GitOps, a RayService, a person): Rayscale does not fight it. */
    OtherWriters otherWriters();

    interface OtherWriters {

        /** Rayscale's writes to a cluster after another writer changed these fields; if it changes them again, Rayscale holds. */
        @WithDefault("3")
        int maxWrites();

        /** How long Rayscale then writes nothing to the cluster; a contest also ends after this long without another change. */
        @WithDefault("10m")
        Duration hold();
    }

    /** Talking to the Ray GCS (DrainNode, ReportAutoscalingState). */
    Gcs gcs();

    /** Where and how each cluster's GCS is reached, as the collector reaches it ({@link GcsClientConfig}), and what is told it. */
    interface Gcs extends GcsClientConfig {

        /** Tell the GCS what the autoscaler is doing, so that {@code ray status} shows pending launches and infeasible demand. */
        @WithDefault("true")
        boolean report();
    }
}
