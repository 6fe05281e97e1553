package dev.rayscale.events;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

/**
 * The Ray and KubeRay a cluster runs, as the collector found them, and what Rayscale does there.
 *
 * @param ray the Ray version, absent when nothing told it
 * @param raySource where the Ray version was read; absent with it
 * @param kubeRay which KubeRay made the cluster's pods (the oldest pod decides); absent before any pod
 * @param support what Rayscale does for the cluster
 * @param limits why the support is not FULL, or what works less well than on a current cluster, each naming what was found
 *     and the lowest version that lifts it; empty when nothing is limited
 */
public record ClusterVersions(String ray, VersionSource raySource, KubeRayGeneration kubeRay, Support support,
        @JsonInclude(JsonInclude.Include.NON_EMPTY) List<String> limits) {

    public ClusterVersions {
        Fields.required(support, "versions.support");
        limits = Fields.list(limits);
        if ((ray == null) != (raySource == null)) {
            throw new IllegalArgumentException("versions.ray and versions.raySource are present together or not at all");
        }
        if (support != Support.FULL && limits.isEmpty()) {
            throw new IllegalArgumentException("versions.limits must say why the support is " + support);
        }
    }
}
