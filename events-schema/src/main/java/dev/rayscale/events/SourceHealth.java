package dev.rayscale.events;

/** Whether each source of a snapshot was read, and at which version. */
public record SourceHealth(GcsSource gcs, KubernetesSource kubernetes) {

    public SourceHealth {
        Fields.required(gcs, "sources.gcs");
        Fields.required(kubernetes, "sources.kubernetes");
    }
}
