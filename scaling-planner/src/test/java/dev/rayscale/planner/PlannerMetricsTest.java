package dev.rayscale.planner;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rayscale.events.ClusterSnapshot;
import dev.rayscale.events.ReasonCode;
import dev.rayscale.events.ScaleDecision;
import dev.rayscale.events.codec.EventCodec;
import dev.rayscale.events.codec.EventSchemas;
import dev.rayscale.service.ClusterSeries;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** Decisions are counted by their mode and reason codes, never by their text. */
class PlannerMetricsTest {

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final PlannerMetrics metrics = new PlannerMetrics(registry);

    @Test
    void aDecisionHeldForAnUnreadableGcsCountsAsHoldWithItsReasonCodes() {
        metrics.published(example("gcs-unavailable"));

        assertThat(registry.counter("rayscale.planner.decisions", "cluster", "ml-team/etl", "kind", "hold").count()).isEqualTo(1);
        assertThat(reasons("gcs_unreadable")).isEqualTo(1);
        assertThat(reasons("replicas_changed")).isEqualTo(1);
        assertThat(reasons("idle_removed")).isZero();
    }

    @Test
    void anActiveDecisionCountsByWhatItChanges() {
        ScaleDecision decision = example("walkthrough");

        assertThat(PlannerMetrics.kind(decision)).isEqualTo("scale_up");
    }

    @Test
    void everyReasonCodeIsExposedFromTheStart() {
        assertThat(ReasonCode.values()).hasSize(15).allSatisfy(code -> assertThat(registry.find("rayscale.planner.decision.reasons")
                .tag("code", code.name().toLowerCase()).counter()).isNotNull());
    }

    /** A cluster gone from here (deleted, opted out, its partition another planner's) takes its series with it; one still sending keeps them. */
    @Test
    void aClustersSeriesGoOnceNothingOfItHasComeForTheExpiry() {
        AtomicLong now = new AtomicLong();
        PlannerMetrics expiring = new PlannerMetrics(registry, now::get);
        ClusterSnapshot waiting = snapshot("small-cluster");
        assertThat(waiting.pendingPods()).as("the example has a pod waiting for a node").isNotEmpty();
        ScaleDecision decision = example("walkthrough");
        expiring.observed(waiting);
        expiring.planned(decision, 1_000);
        expiring.published(decision);
        String gone = waiting.cluster().id();
        String staying = decision.cluster().id();
        assertThat(gone).isNotEqualTo(staying);
        assertThat(series(gone)).containsExactly("rayscale.planner.pods.waiting.oldest.seconds");

        now.addAndGet(ClusterSeries.EXPIRY.toNanos());
        expiring.observed(snapshot("walkthrough"));
        expiring.forgetUnseenSince(now.get() - ClusterSeries.EXPIRY.toNanos() + 1);

        assertThat(series(gone)).as("nothing of it for the whole expiry").isEmpty();
        assertThat(series(staying)).containsExactly("rayscale.planner.decisions", "rayscale.planner.infeasible.demand",
                "rayscale.planner.pods.waiting.oldest.seconds");

        expiring.observed(waiting);
        assertThat(series(gone)).as("back when it sends again").containsExactly("rayscale.planner.pods.waiting.oldest.seconds");
    }

    private List<String> series(String cluster) {
        return registry.getMeters().stream().filter(meter -> cluster.equals(meter.getId().getTag("cluster"))).map(meter -> meter.getId().getName())
                .sorted().toList();
    }

    private static ClusterSnapshot snapshot(String name) {
        return EventCodec.SNAPSHOTS.decode(EventSchemas.readResource("examples/cluster-snapshot/" + name + ".json"));
    }

    private double reasons(String code) {
        return registry.counter("rayscale.planner.decision.reasons", "code", code).count();
    }

    private static ScaleDecision example(String name) {
        return EventCodec.DECISIONS.decode(EventSchemas.readResource("examples/scale-decision/" + name + ".json"));
    }
}
