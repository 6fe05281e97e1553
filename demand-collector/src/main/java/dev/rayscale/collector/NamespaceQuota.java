package dev.rayscale.collector;

import dev.rayscale.clients.GcsChannels;
import io.ray.v1.RayCluster;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * How many opted-in clusters of one namespace a shared collector serves: a namespace that opts in more (a careless loop,
 * a hostile tenant) does not crowd out the others. The oldest are served, so a namespace's served clusters do not change
 * when it opts in one more; the rest are left alone, each with a Warning Event.
 */
final class NamespaceQuota {

    private NamespaceQuota() {
    }

    /** The ids of the clusters beyond {@code perNamespace} in their namespace: the newest, by creation time, then name. */
    static Set<String> beyond(List<RayCluster> clusters, int perNamespace) {
        Set<String> beyond = new HashSet<>();
        Map<String, List<RayCluster>> byNamespace = clusters.stream().collect(Collectors.groupingBy(cluster -> cluster.getMetadata().getNamespace()));
        for (List<RayCluster> namespace : byNamespace.values()) {
            if (namespace.size() > perNamespace) {
                namespace.stream().sorted(Comparator.comparing((RayCluster cluster) -> String.valueOf(cluster.getMetadata().getCreationTimestamp()))
                        .thenComparing(cluster -> cluster.getMetadata().getName()))
                        .skip(perNamespace).map(GcsChannels::id).forEach(beyond::add);
            }
        }
        return beyond;
    }
}
