package dev.rayscale.events;

import java.util.List;

/**
 * One kind of Rayscale event: its record, topic, CloudEvents type and JSON Schema.
 *
 * @param ceType the CloudEvents {@code ce_type}; its suffix is the schema version
 * @param schemaResource the JSON Schema's path on the classpath (and in the jar)
 */
public record EventType<T extends RayscaleEvent>(
        Class<T> recordType, String topic, String ceType, int schemaVersion, String schemaResource) {

    /** CloudEvents type of cluster snapshots (a constant, usable in annotations). */
    public static final String SNAPSHOT_CE_TYPE = "dev.rayscale.snapshot.v1";
    public static final String DECISION_CE_TYPE = "dev.rayscale.decision.v1";
    public static final String ACTUATION_CE_TYPE = "dev.rayscale.actuation.v1";

    public static final EventType<ClusterSnapshot> SNAPSHOT = new EventType<>(
            ClusterSnapshot.class, Topics.SNAPSHOTS, SNAPSHOT_CE_TYPE, ClusterSnapshot.SCHEMA_VERSION,
            "schemas/cluster-snapshot.v1.schema.json");
    public static final EventType<ScaleDecision> DECISION = new EventType<>(
            ScaleDecision.class, Topics.DECISIONS, DECISION_CE_TYPE, ScaleDecision.SCHEMA_VERSION,
            "schemas/scale-decision.v1.schema.json");
    public static final EventType<ActuationResult> ACTUATION = new EventType<>(
            ActuationResult.class, Topics.ACTUATIONS, ACTUATION_CE_TYPE, ActuationResult.SCHEMA_VERSION,
            "schemas/actuation-result.v1.schema.json");

    public static final List<EventType<?>> ALL = List.of(SNAPSHOT, DECISION, ACTUATION);

    /** Short name for messages and metrics: {@code ClusterSnapshot}, ... */
    public String displayName() {
        return recordType.getSimpleName();
    }
}
