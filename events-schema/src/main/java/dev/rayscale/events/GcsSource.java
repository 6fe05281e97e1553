package dev.rayscale.events;

import com.fasterxml.jackson.annotation.JsonIgnore;

/**
 * The read of the cluster's Ray GCS ({@code AutoscalerStateService/GetClusterResourceState}).
 *
 * @param error why the read failed; present exactly when status is not OK
 * @param stateVersion the GCS {@code cluster_resource_state_version} that was read (OK only)
 * @param sessionName the Ray session, which changes when the head restarts (OK only)
 */
public record GcsSource(SourceStatus status, String error, Long stateVersion, String sessionName) {

    public GcsSource {
        Fields.required(status, "sources.gcs.status");
        status.checkError(error, "sources.gcs.error");
    }

    public static GcsSource ok(long stateVersion, String sessionName) {
        return new GcsSource(SourceStatus.OK, null, stateVersion, sessionName);
    }

    public static GcsSource unavailable(String error) {
        return new GcsSource(SourceStatus.UNAVAILABLE, error, null, null);
    }

    @JsonIgnore
    public boolean isAvailable() {
        return status == SourceStatus.OK;
    }
}
