package dev.rayscale.events;

import java.util.Map;

/**
 * The head group. The head is a Ray node too and may hold work (unless, as usual, {@code num-cpus: "0"}).
 *
 * @param name the Ray node type name the GCS reports for the head ({@code headgroup} on KubeRay)
 * @param resources per-node resources as Ray derives them from {@code rayStartParams} and the container
 */
public record HeadGroup(String name, Resources resources, Map<String, String> labels) {

    public HeadGroup {
        Fields.requiredText(name, "headGroup.name");
        resources = resources == null ? Resources.NONE : resources;
        labels = Fields.labels(labels);
    }
}
