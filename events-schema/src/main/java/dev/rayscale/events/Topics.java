package dev.rayscale.events;

/** Kafka topic names. Every topic is keyed by the cluster id {@code namespace/name}. */
public final class Topics {

    public static final String SNAPSHOTS = "rayscale.snapshots";
    public static final String DECISIONS = "rayscale.decisions";
    public static final String ACTUATIONS = "rayscale.actuations";

    private Topics() {
    }

    /** The dead-letter topic of one consuming service, e.g. {@code rayscale.scaling-planner.dlq}. */
    public static String deadLetter(String service) {
        return "rayscale." + service + ".dlq";
    }
}
