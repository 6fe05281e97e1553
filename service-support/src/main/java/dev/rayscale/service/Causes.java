package dev.rayscale.service;

/** Where a failure began: Kafka's errors reach the services wrapped (CompletionException, Reactive Messaging's own). */
public final class Causes {

    private Causes() {
    }

    /** The innermost cause of {@code failure} (itself when it has none). */
    public static Throwable root(Throwable failure) {
        Throwable cause = failure;
        while (cause.getCause() != null && cause.getCause() != cause) {
            cause = cause.getCause();
        }
        return cause;
    }
}
