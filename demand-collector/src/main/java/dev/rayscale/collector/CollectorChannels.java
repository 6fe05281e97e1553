package dev.rayscale.collector;

/** Reactive Messaging channel names, shared with the tests. */
public final class CollectorChannels {

    public static final String SNAPSHOTS = "snapshots";

    private CollectorChannels() {
    }
}
