package dev.rayscale.service;

import java.util.Optional;

/** Where a failure began: Kafka's and Kubernetes' errors reach the services wrapped (CompletionException, Reactive Messaging's own). */
public final class Causes {

    private Causes() {
    }

    /** The innermost cause of {@code failure} (itself when it has none). */
    public static Throwable root(Throwable failure) {
        Throwable cause = failure;
        while (next(cause) != null) {
            cause = next(cause);
        }
        return cause;
    }

    /** The outermost of {@code failure} and its causes that is a {@code type}, if any. */
    public static <T extends Throwable> Optional<T> find(Throwable failure, Class<T> type) {
        for (Throwable cause = failure; cause != null; cause = next(cause)) {
            if (type.isInstance(cause)) {
                return Optional.of(type.cast(cause));
            }
        }
        return Optional.empty();
    }

    private static Throwable next(Throwable cause) {
        return cause.getCause() == cause ? null : cause.getCause();
    }
}
