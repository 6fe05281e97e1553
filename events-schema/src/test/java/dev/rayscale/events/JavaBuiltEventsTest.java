package dev.rayscale.events;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rayscale.events.codec.EventCodec;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Records built in Java, with every optional field set, write documents the closed schemas accept. */
class JavaBuiltEventsTest {

    private static final ClusterRef CLUSTER = new ClusterRef("team-a", "batch", "uid-1");
    private static final Instant NOW = Instant.parse("2026-11-30T09:00:00Z");

    @Test
    void snapshotBuiltInJavaMatchesTheSchema() {
        ClusterSnapshot snapshot = new ClusterSnapshot(ClusterSnapshot.SCHEMA_VERSION, "s-1", CLUSTER, 1, NOW,
                new SourceHealth(GcsSource.ok(3, "session_1"), KubernetesSource.ok("100", 2)),
                new ScalingPolicy(UpscalingMode.CONSERVATIVE, new BigDecimal("0.5"), 30, 10, 5, 600L, true, false),
                new HeadGroup("headgroup", Resources.of("CPU", "0", "memory", "2147483648"), Map.of("zone", "a")),
                List.of(new WorkerGroup("cpu", 0, 1, 0, 5, 2, Resources.of("CPU", "2"), Map.of("tier", "std"),
                        List.of("batch-cpu-1"), 45L, false)),
                List.of(new RayNode("ab12", "batch-cpu-1", null, "cpu", NodeStatus.IDLE, Resources.of("CPU", "2"),
                        Resources.of("CPU", "2"), 5_000, Map.of("tier", "std"), "10.0.0.1", List.of())),
                List.of(new PendingPod("batch-cpu-2", null, "cpu", "Pending", "Unschedulable", NOW.minusSeconds(30))),
                new Demand(
                        List.of(new TaskDemand(Resources.of("CPU", "0.5"), 7, List.of(new LabelSelector(
                                List.of(new LabelConstraint("tier", LabelOperator.NOT_IN, List.of("spot"))))))),
                        List.of(new GangDemand("pg1", PlacementStrategy.STRICT_SPREAD,
                                List.of(Resources.of("CPU", "1"), Resources.of("CPU", "1")), "pg1:STRICT_SPREAD|PENDING")),
                        List.of(new ResourceConstraint(List.of(new ShapeCount(Resources.of("CPU", "2"), 3))))));

        assertThat(StrictSchemas.STRICT.validate(EventType.SNAPSHOT, EventCodec.SNAPSHOTS.toTree(snapshot))).isEmpty();
        assertThat(EventCodec.SNAPSHOTS.decode(EventCodec.SNAPSHOTS.encode(snapshot))).isEqualTo(snapshot);
    }

    @Test
    void unavailableSnapshotBuiltInJavaMatchesTheSchema() {
        ClusterSnapshot snapshot = new ClusterSnapshot(ClusterSnapshot.SCHEMA_VERSION, "s-2", CLUSTER, 2, NOW,
                new SourceHealth(GcsSource.unavailable("UNAVAILABLE", "connection refused"), KubernetesSource.ok("101", 2)),
                ScalingPolicy.defaults(), new HeadGroup("headgroup", null, null), List.of(), null, null, null);

        assertThat(StrictSchemas.STRICT.validate(EventType.SNAPSHOT, EventCodec.SNAPSHOTS.toTree(snapshot))).isEmpty();
        assertThat(EventCodec.SNAPSHOTS.decode(EventCodec.SNAPSHOTS.encode(snapshot))).isEqualTo(snapshot);
    }

    @Test
    void decisionBuiltInJavaMatchesTheSchema() {
        ScaleDecision decision = new ScaleDecision(ScaleDecision.SCHEMA_VERSION, "d-1", CLUSTER, "s-1", 1, "100", NOW,
                NOW.plusSeconds(30),
                List.of(new GroupTarget("cpu", 0, 3, 2, List.of(), List.of(
                        new PodDeletion("batch-cpu-1", "ab12", DeletionCause.IDLE, 90_000L)), List.of("note"))),
                List.of(InfeasibleDemand.task(Resources.of("GPU", "8"), 2, InfeasibleReason.NO_GROUP_FITS, "no GPU group"),
                        InfeasibleDemand.gang("pg1", List.of(new ShapeCount(Resources.of("CPU", "1"), 2)),
                                InfeasibleReason.MAX_REPLICAS, "cpu at max"),
                        InfeasibleDemand.constraint(List.of(new ShapeCount(Resources.of("CPU", "1"), 99)),
                                InfeasibleReason.MAX_WORKERS, "cap 10")),
                List.of(new PendingLaunch("cpu", 0, 1)),
                List.of(new StuckPod("batch-cpu-2", "cpu", 1_000, "Unschedulable")),
                DecisionMode.ACTIVE,
                List.of("cpu: remove batch-cpu-1"),
                List.of(new Reason(ReasonCode.IDLE_REMOVED, "cpu", "remove batch-cpu-1")),
                new PlannerInfo("0.1.0", "sha256:abc"));

        assertThat(StrictSchemas.STRICT.validate(EventType.DECISION, EventCodec.DECISIONS.toTree(decision))).isEmpty();
        assertThat(EventCodec.DECISIONS.decode(EventCodec.DECISIONS.encode(decision))).isEqualTo(decision);
        assertThat(decision.changesAnything()).isTrue();
    }

    @Test
    void actuationBuiltInJavaMatchesTheSchema() {
        ActuationResult result = new ActuationResult(ActuationResult.SCHEMA_VERSION, "a-1", CLUSTER, "d-1", "s-1",
                Outcome.APPLIED, "cpu 3 -> 2", ActuationCause.PATCHED, "100", "104",
                List.of(new GroupActuation("cpu", 3, 2, List.of("batch-cpu-1"),
                        List.of(new DrainRejection("batch-cpu-3", "busy")))),
                NOW, NOW.plusMillis(40), 1, false);

        assertThat(StrictSchemas.STRICT.validate(EventType.ACTUATION, EventCodec.ACTUATIONS.toTree(result))).isEmpty();
        assertThat(EventCodec.ACTUATIONS.decode(EventCodec.ACTUATIONS.encode(result))).isEqualTo(result);
    }

    @Test
    void anActuationsCauseMustBelongToItsOutcome() {
        assertThatThrownBy(() -> new ActuationResult(ActuationResult.SCHEMA_VERSION, "a-2", CLUSTER, "d-1", "s-1", Outcome.APPLIED,
                "expired", ActuationCause.EXPIRED, null, null, List.of(), NOW, NOW, 0, false))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("belongs to outcome STALE");
    }
}
