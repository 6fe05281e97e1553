package dev.rayscale.actuator;

import dev.rayscale.events.ClusterRef;
import dev.rayscale.events.DecisionMode;
import dev.rayscale.events.DeletionCause;
import dev.rayscale.events.GroupTarget;
import dev.rayscale.events.PendingLaunch;
import dev.rayscale.events.PlannerInfo;
import dev.rayscale.events.PodDeletion;
import dev.rayscale.events.ScaleDecision;
import io.ray.v1.RayCluster;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import java.util.UUID;

/** Decisions for tests, about the first worker group of a cluster. */
final class Decisions {

    private Decisions() {
    }

    static ScaleDecision scale(RayCluster cluster, long sequence, int from, int to, List<PodDeletion> toDelete) {
        return scale(cluster, sequence, from, to, toDelete, Instant.now().plus(Duration.ofMinutes(5)));
    }

    static ScaleDecision scale(RayCluster cluster, long sequence, int from, int to, List<PodDeletion> toDelete, Instant expiresAt) {
        Instant decided = Instant.now().isBefore(expiresAt) ? Instant.now() : expiresAt.minus(Duration.ofSeconds(30));
        String group = cluster.getSpec().getWorkerGroupSpecs().get(0).getGroupName();
        return new ScaleDecision(ScaleDecision.SCHEMA_VERSION, UUID.randomUUID().toString(),
                new ClusterRef(cluster.getMetadata().getNamespace(), cluster.getMetadata().getName(), cluster.getMetadata().getUid()),
                "snap-" + sequence, sequence, cluster.getMetadata().getResourceVersion(), decided, expiresAt,
                List.of(new GroupTarget(group, 0, from, to, workersToDelete(cluster), toDelete, List.of())),
                List.of(), to > from ? List.of(new PendingLaunch(group, to - from, 0)) : List.of(), List.of(), DecisionMode.ACTIVE,
                List.of("test"), List.of(), new PlannerInfo("test", "sha256:test"));
    }

    private static List<String> workersToDelete(RayCluster cluster) {
        var strategy = cluster.getSpec().getWorkerGroupSpecs().get(0).getScaleStrategy();
        return strategy == null || strategy.getWorkersToDelete() == null ? List.of() : strategy.getWorkersToDelete();
    }

    static PodDeletion idle(String pod) {
        return new PodDeletion(pod, HexNodes.of(pod), DeletionCause.IDLE, 120_000L);
    }

    /** Node ids are the hex of the pod name in these tests; the fake GCS sees the same bytes. */
    static final class HexNodes {
        private HexNodes() {
        }

        static String of(String pod) {
            return HexFormat.of().formatHex(pod.getBytes(StandardCharsets.UTF_8));
        }
    }
}
