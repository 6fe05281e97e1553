package dev.rayscale.events;

/** The outcome of reading one source. Anything but {@code OK} means its data is unknown, not empty. */
public enum SourceStatus {
    /** Read successfully just now. */
    OK,
    /** Read, but possibly out of date (for example a watch that lost its connection); see the error. */
    STALE,
    /** Could not be read (unreachable, timed out, refused, or answered garbage); see the error. */
    UNAVAILABLE;

    /** The error text must be present exactly when the status is not OK. */
    void checkError(String error, String field) {
        if (this == OK && error != null) {
            throw new IllegalArgumentException(field + " must be absent when the status is OK");
        }
        if (this != OK) {
            Fields.requiredText(error, field);
        }
    }
}
