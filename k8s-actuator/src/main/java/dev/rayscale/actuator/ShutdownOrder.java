package dev.rayscale.actuator;

/**
 * In what order the actuator's parts stop (observer priorities of Quarkus' {@code ShutdownEvent}, lowest first): the
 * decisions under way end, then their reports are sent, then the GCS channels those reports use are closed.
 */
final class ShutdownOrder {

    static final int DECISIONS = 100;
    static final int REPORTS = 200;
    static final int CHANNELS = 300;

    private ShutdownOrder() {
    }
}
