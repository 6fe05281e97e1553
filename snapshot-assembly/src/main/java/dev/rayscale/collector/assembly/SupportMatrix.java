package dev.rayscale.collector.assembly;

import dev.rayscale.events.ClusterVersions;
import dev.rayscale.events.KubeRayGeneration;
import dev.rayscale.events.ReleaseVersion;
import dev.rayscale.events.Support;
import dev.rayscale.events.VersionSource;
import io.fabric8.kubernetes.api.model.Container;
import io.ray.v1.RayCluster;
import io.ray.v1.rayclusterspec.WorkerGroupSpecs;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What Rayscale does for a cluster, given the Ray and KubeRay it runs: the support matrix of docs/ray-versions.md, row by row.
 * Where the history of a release could not be settled (the docs say which), the boundary is put where Rayscale is the more
 * careful.
 * <ul>
 *   <li>Ray before 2.7, or a GCS that answers the autoscaler state service with UNIMPLEMENTED: left alone. The GCS serves
 *       the service from the mid-2023 releases (ray-project/ray PRs 35596, 36768; fact D54).</li>
 *   <li>KubeRay before 1.1 (a pod's Ray container has no {@code RAY_CLOUD_INSTANCE_ID}): left alone. Its Ray nodes name no
 *       pod, so every worker would count twice, as a node and as a pod not yet registered (D54).</li>
 *   <li>Ray 2.7 to 2.9, or a Ray version the GCS did not tell (spec.rayVersion and the image's tag may lower the support,
 *       never raise it: neither is checked against what runs): scaled up, never down. {@code DrainNode}'s reasons were numbered
 *       {@code IDLE_TERMINATION 0, PREEMPTION 1} until about 2.10 (PR 37836; renumbered by PR 43189): Rayscale's idle
 *       drain, 1, would be read as a preemption, which a busy node accepts.</li>
 *   <li>Ray 2.10 and later with KubeRay 1.1 and later: served fully, with what older releases lack said as limits: multi-host
 *       pods without replica names (KubeRay before 1.6) keep their replicas, and Ray before 2.49 reports no node labels or
 *       label selectors.</li>
 * </ul>
 * Pure: the same inputs always give the same answer.
 */
public final class SupportMatrix {

    /** The lowest Ray served at all. */
    public static final ReleaseVersion LOWEST_RAY = ReleaseVersion.of(2, 7);
    /** The lowest Ray scaled down: its drains are numbered as Rayscale numbers them. */
    public static final ReleaseVersion RAY_SCALED_DOWN = ReleaseVersion.of(2, 10);
    /** The lowest Ray whose GCS reports node labels and demand's label selectors. */
    public static final ReleaseVersion RAY_WITH_LABELS = ReleaseVersion.of(2, 49);
    public static final String LOWEST_KUBERAY = "1.1.0";

    private SupportMatrix() {
    }

    /** A Ray version and where it was read. */
    public record RayVersion(String version, VersionSource source) {
    }

    /**
     * What the matrix found.
     *
     * @param warning the reason of the Warning Event that tells the cluster's owners, when the support is not FULL:
     *     {@code RayVersionUnsupported}, {@code KubeRayVersionUnsupported} or {@code ScaleDownUnsafe}; null when FULL
     */
    public record Assessment(ClusterVersions versions, String warning) {
    }

    /**
     * @param gcsRayVersion what the head recorded in the GCS ({@code CLUSTER_METADATA}), null if not read
     * @param noAutoscalerService the GCS answered the autoscaler state service with UNIMPLEMENTED
     */
    public static Assessment assess(RayCluster cluster, List<RayPod> pods, String gcsRayVersion, boolean noAutoscalerService) {
        RayVersion ray = rayVersion(cluster, gcsRayVersion).orElse(null);
        KubeRayGeneration kubeRay = pods.stream().map(RayPod::kubeRay).filter(Objects::nonNull)
                .min(Comparator.naturalOrder()).orElse(null);
        Optional<ReleaseVersion> release = ray == null ? Optional.empty() : ReleaseVersion.parse(ray.version());
        List<String> unsupported = new ArrayList<>();
        List<String> scaleUpOnly = new ArrayList<>();
        List<String> limits = new ArrayList<>();
        String rayName = ray == null ? "the cluster's Ray" : "Ray " + ray.version();
        if (noAutoscalerService) {
            unsupported.add(rayName + " has no autoscaler state service (its GCS answers UNIMPLEMENTED); Rayscale serves Ray "
                    + LOWEST_RAY + " and later");
        } else if (release.isPresent() && !release.get().atLeast(LOWEST_RAY)) {
            unsupported.add(rayName + " is older than " + LOWEST_RAY + ", the lowest Ray Rayscale serves (its GCS has no autoscaler "
                    + "state service)");
        }
        boolean rayUnsupported = !unsupported.isEmpty();
        if (kubeRay == KubeRayGeneration.BEFORE_1_1) {
            unsupported.add("pods made by a KubeRay before " + LOWEST_KUBERAY + " (no RAY_CLOUD_INSTANCE_ID in the Ray container): their "
                    + "Ray nodes name no pod, so Rayscale cannot tell which node is which pod; KubeRay " + LOWEST_KUBERAY + " and later "
                    + "set it on the pods they make");
        }
        // A Ray left alone is not also told what it could not do beside.
        if (!rayUnsupported && release.isEmpty()) {
            scaleUpOnly.add("the Ray version is unknown (no spec.rayVersion, no version in the head image's tag, none recorded in "
                    + "the GCS): Rayscale drains nodes only on Ray " + RAY_SCALED_DOWN + " and later, whose drain reasons it knows");
        } else if (!rayUnsupported && ray.source() != VersionSource.GCS && release.get().atLeast(LOWEST_RAY)) {
            scaleUpOnly.add("the Ray running was not read from the GCS, only " + (ray.source() == VersionSource.SPEC
                    ? "spec.rayVersion " : "the head image's tag ") + ray.version() + ", which KubeRay does not check against what "
                    + "runs: Rayscale drains nodes only on a Ray the GCS says is " + RAY_SCALED_DOWN + " or later");
        } else if (!rayUnsupported && !release.get().atLeast(RAY_SCALED_DOWN)) {
            scaleUpOnly.add(rayName + " numbers DrainNode's reasons as its draft did (IDLE_TERMINATION 0, PREEMPTION 1), so an idle "
                    + "drain could preempt a busy node; Rayscale scales down from Ray " + RAY_SCALED_DOWN);
        } else if (!rayUnsupported && !release.get().atLeast(RAY_WITH_LABELS)) {
            limits.add(rayName + " reports no node labels and no label selectors of pending work (from Ray " + RAY_WITH_LABELS
                    + "): work that selects labels is scaled for as if it selected none");
        }
        if (kubeRay == KubeRayGeneration.FROM_1_1) {
            multiHostGroups(cluster).forEach(group -> limits.add("worker group " + group + " is multi-host and its pods, made by a "
                    + "KubeRay before 1.6, carry no replica name: its replicas are never scaled down"));
        }
        Support support = !unsupported.isEmpty() ? Support.UNSUPPORTED : !scaleUpOnly.isEmpty() ? Support.SCALE_UP_ONLY : Support.FULL;
        List<String> said = new ArrayList<>(unsupported);
        said.addAll(scaleUpOnly);
        said.addAll(limits);
        String warning = switch (support) {
            case UNSUPPORTED -> rayUnsupported ? "RayVersionUnsupported" : "KubeRayVersionUnsupported";
            case SCALE_UP_ONLY -> "ScaleDownUnsafe";
            case FULL -> null;
        };
        return new Assessment(new ClusterVersions(ray == null ? null : ray.version(), ray == null ? null : ray.source(), kubeRay, support,
                said), warning);
    }

    /**
     * The Ray version: what the head recorded in the GCS (what runs), else {@code spec.rayVersion} (which KubeRay does not
     * check against the image), else the tag of the head's Ray container image.
     */
    static Optional<RayVersion> rayVersion(RayCluster cluster, String gcsRayVersion) {
        if (gcsRayVersion != null && !gcsRayVersion.isBlank()) {
            return Optional.of(new RayVersion(gcsRayVersion.trim(), VersionSource.GCS));
        }
        String spec = cluster.getSpec().getRayVersion();
        if (spec != null && !spec.isBlank()) {
            return Optional.of(new RayVersion(spec.trim(), VersionSource.SPEC));
        }
        return imageTag(cluster).filter(tag -> ReleaseVersion.parse(tag).isPresent()).map(tag -> new RayVersion(tag, VersionSource.IMAGE));
    }

    /** The tag of the head's Ray container image ({@code rayproject/ray:2.41.0-py311} gives {@code 2.41.0-py311}). */
    private static Optional<String> imageTag(RayCluster cluster) {
        var head = cluster.getSpec().getHeadGroupSpec();
        if (head == null || head.getTemplate() == null || head.getTemplate().getSpec() == null
                || head.getTemplate().getSpec().getContainers() == null || head.getTemplate().getSpec().getContainers().isEmpty()) {
            return Optional.empty();
        }
        Container ray = head.getTemplate().getSpec().getContainers().get(0);
        String image = ray.getImage();
        if (image == null || image.contains("@")) {
            return Optional.empty();
        }
        int colon = image.lastIndexOf(':');
        return colon > image.lastIndexOf('/') ? Optional.of(image.substring(colon + 1)) : Optional.empty();
    }

    private static List<String> multiHostGroups(RayCluster cluster) {
        List<WorkerGroupSpecs> groups = cluster.getSpec().getWorkerGroupSpecs();
        return groups == null ? List.of() : groups.stream()
                .filter(group -> group.getNumOfHosts() != null && group.getNumOfHosts() > 1).map(WorkerGroupSpecs::getGroupName).toList();
    }
}
