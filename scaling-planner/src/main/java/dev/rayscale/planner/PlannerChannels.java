package dev.rayscale.planner;

/** Reactive Messaging channel names, shared with the tests. */
public final class PlannerChannels {

    public static final String SNAPSHOTS = "snapshots";
    public static final String DECISIONS = "decisions";
    public static final String DEAD_LETTERS = "dead-letters";

    private PlannerChannels() {
    }
}
