package dev.rayscale.actuator;

/** Reactive Messaging channel names, shared with the tests. */
public final class ActuatorChannels {

    public static final String DECISIONS = "decisions";
    public static final String ACTUATIONS = "actuations";
    public static final String DEAD_LETTERS = "dead-letters";

    private ActuatorChannels() {
    }
}
