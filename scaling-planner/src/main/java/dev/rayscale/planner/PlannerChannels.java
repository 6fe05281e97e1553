package dev.rayscale.planner;

/** Reactive Messaging channel names, shared with the tests. */
public final class PlannerChannels {

    public static final String SNAPSHOTS = "snapshots";
    public static final String DECISIONS = "decisions";

    private PlannerChannels() {
    }
}
