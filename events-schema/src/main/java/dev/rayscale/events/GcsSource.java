package dev.rayscale.events;

import com.fasterxml.jackson.annotation.JsonIgnore;

/**
 * The read of the cluster's Ray GCS ({@code AutoscalerStateService/GetClusterResourceState}).
 *
 * @param errorCode the kind of failure, when status is not OK: a gRPC status code name ({@code UNAVAILABLE},
 *     {@code DEADLINE_EXCEEDED}, {@code UNAUTHENTICATED}, ...), {@code INVALID_REPLY} (an answer that could not be read)
 *     or {@code CLIENT_ERROR}; absent in snapshots written before it was recorded
 * @param error why the read failed, for people ({@code CODE: detail}); present exactly when status is not OK
 * @param stateVersion the GCS {@code cluster_resource_state_version} that was read (OK only)
 * @param sessionName the Ray session, which changes when the head restarts (OK only)
 */
public record GcsSource(SourceStatus status, String errorCode, String error, Long stateVersion, String sessionName) {

    public GcsSource {
        Fields.required(status, "sources.gcs.status");
        status.checkError(error, "sources.gcs.error");
        if (status == SourceStatus.OK && errorCode != null) {
            throw new IllegalArgumentException("sources.gcs.errorCode must be absent when the status is OK");
        }
    }

    public static GcsSource ok(long stateVersion, String sessionName) {
        return new GcsSource(SourceStatus.OK, null, null, stateVersion, sessionName);
    }

    /** A failed read: its kind, and the particulars for people. */
    public static GcsSource unavailable(String errorCode, String detail) {
        return new GcsSource(SourceStatus.UNAVAILABLE, Fields.requiredText(errorCode, "sources.gcs.errorCode"), errorCode + ": " + detail,
                null, null);
    }

    @JsonIgnore
    public boolean isAvailable() {
        return status == SourceStatus.OK;
    }
}
