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
 * @param notReconciled present when KubeRay is not acting on the RayCluster's current spec, saying how long and what that
 *     may mean: its {@code status.observedGeneration} has stayed behind {@code metadata.generation} (KubeRay 1.3+ stops at
 *     a spec it finds invalid, with a Warning Event only); the planner then holds the size, since replicas written now
 *     would change nothing
 */
public record KubernetesSource(SourceStatus status, String error, String resourceVersion, long generation, String notReconciled) {

    public KubernetesSource {
        Fields.required(status, "sources.kubernetes.status");
        status.checkError(error, "sources.kubernetes.error");
        Fields.requiredText(resourceVersion, "sources.kubernetes.resourceVersion");
        if (notReconciled != null) {
            Fields.requiredText(notReconciled, "sources.kubernetes.notReconciled");
        }
    }

    public KubernetesSource(SourceStatus status, String error, String resourceVersion, long generation) {
        this(status, error, resourceVersion, generation, null);
    }

    /** The same, saying KubeRay is not acting on the current spec ({@code why}; null: it is). */
    public KubernetesSource notReconciled(String why) {
        return new KubernetesSource(status, error, resourceVersion, generation, why);
    }

    public static KubernetesSource ok(String resourceVersion, long generation) {
        return new KubernetesSource(SourceStatus.OK, null, resourceVersion, generation);
    }

    @JsonIgnore
    public boolean isCurrent() {
        return status == SourceStatus.OK;
    }
}
