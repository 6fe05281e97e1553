package dev.rayscale.events;

import com.fasterxml.jackson.annotation.JsonIgnore;

/**
 * The RayCluster custom resource and its pods as the collector saw them. A decision names the
 * resourceVersion so that the actuator can refuse to apply it to a resource that has changed since.
 *
 * @param status STALE when the collector's watch on the cluster or its pods is not current
 * @param error why the status is not OK; present exactly then
 * @param resourceVersion {@code metadata.resourceVersion} of the RayCluster
 * @param generation {@code metadata.generation} of the RayCluster (changes with its spec only)
 */
public record KubernetesSource(SourceStatus status, String error, String resourceVersion, long generation) {

    public KubernetesSource {
        Fields.required(status, "sources.kubernetes.status");
        status.checkError(error, "sources.kubernetes.error");
        Fields.requiredText(resourceVersion, "sources.kubernetes.resourceVersion");
    }

    public static KubernetesSource ok(String resourceVersion, long generation) {
        return new KubernetesSource(SourceStatus.OK, null, resourceVersion, generation);
    }

    @JsonIgnore
    public boolean isCurrent() {
        return status == SourceStatus.OK;
    }
}
