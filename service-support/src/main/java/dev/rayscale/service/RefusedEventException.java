package dev.rayscale.service;

/**
 * An event that reads well but that the service will not act on, for {@code reason}: one no honest writer of its topic can
 * have made. It goes to the dead-letter topic with the reason, counted apart from unreadable records, so that an alert can
 * say that something writes to the topic what it should not.
 */
public final class RefusedEventException extends RuntimeException {

    public RefusedEventException(String reason) {
        super(reason);
    }
}
