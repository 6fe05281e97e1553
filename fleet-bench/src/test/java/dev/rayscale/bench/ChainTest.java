package dev.rayscale.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rayscale.events.Outcome;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** How the bench follows a change of demand through the topics, and what it counts as lost or applied twice. */
class ChainTest {

    private final Chain chain = new Chain();

    @Test
    void aChangeIsSeenByTheFirstSnapshotOfAHigherGcsVersionAndActedOnByTheFirstResultForItOrALaterOne() {
        chain.changed(new Chain.Change("ns/a", 10, 1_000));
        chain.snapshot("a@1", new Chain.Snapshot("ns/a", 10, 990, 995));
        chain.snapshot("a@2", new Chain.Snapshot("ns/a", 11, 1_300, 1_310));
        chain.snapshot("a@3", new Chain.Snapshot("ns/a", 12, 1_800, 1_805));
        chain.decision("d2", new Chain.Decision("a@2", 1_350));
        chain.decision("d3", new Chain.Decision("a@3", 1_850));
        chain.result(new Chain.Result("d2", Outcome.STALE, 1_380, 1_400));
        chain.result(new Chain.Result("d3", Outcome.APPLIED, 1_860, 1_900));

        Chain.Account account = chain.account(cluster -> false, snapshot -> false);

        assertThat(account.latencies()).singleElement().isEqualTo(new Chain.Latency(310, 350, 900, 600, false));
        assertThat(account.actuator().waitingMs()).as("published 1,350 and 1,850, taken up 1,380 and 1,860").containsExactly(10, 30);
        assertThat(account.actuator().handlingMs()).as("completed 1,400 and 1,900").containsExactly(20, 40);
        assertThat(account.lost()).isZero();
        assertThat(account.appliedTwice()).isZero();
    }

    @Test
    void changesNotActedOnAndDecisionsWithoutAResultAreLostAndASecondPatchIsCounted() {
        chain.changed(new Chain.Change("ns/a", 5, 1_000));
        chain.changed(new Chain.Change("ns/b", 7, 1_000));
        chain.snapshot("a@1", new Chain.Snapshot("ns/a", 6, 1_100, 1_110));
        chain.decision("d1", new Chain.Decision("a@1", 1_150));
        chain.result(new Chain.Result("d1", Outcome.APPLIED, 1_200, 1_200));
        chain.result(new Chain.Result("d1", Outcome.APPLIED, 1_300, 1_300));
        chain.snapshot("b@1", new Chain.Snapshot("ns/b", 8, 1_100, 1_110));
        chain.decision("d2", new Chain.Decision("b@1", 1_150));

        Chain.Account account = chain.account(cluster -> false, snapshot -> false);

        assertThat(account.incomplete()).as("b's change has no result").isEqualTo(1);
        assertThat(account.unanswered()).as("d2 has no result").isEqualTo(1);
        assertThat(account.lost()).isEqualTo(2);
        assertThat(account.appliedTwice()).isEqualTo(1);
        assertThat(account.quantile(Chain.Latency::appliedMs, 0.99)).isEqualTo(200);
    }

    @Test
    void aChangeNotActedOnBecauseItsClusterWaitsForItsPendingLaunchesIsCountedApartAndNotLost() {
        chain.changed(new Chain.Change("ns/a", 5, 1_000));
        chain.changed(new Chain.Change("ns/b", 7, 1_000));
        chain.snapshot("a@1", new Chain.Snapshot("ns/a", 6, 1_100, 1_110));
        chain.snapshot("b@1", new Chain.Snapshot("ns/b", 8, 1_100, 1_110));

        Chain.Account account = chain.account("ns/a"::equals, snapshot -> false);

        assertThat(account.incomplete()).isEqualTo(2);
        assertThat(account.waitingForLaunches()).as("a waits for its launches").isEqualTo(1);
        assertThat(account.lost()).as("b does not").isEqualTo(1);
    }

    @Test
    void aChangeWhoseFirstSnapshotThePlannerAnsweredByChangingNothingIsToldApartFromThoseActedOnWhenFirstSeen() {
        changeDecidedOnItsSecondSnapshot(9_000, 9_100);
        chain.changed(new Chain.Change("ns/b", 5, 1_000));
        chain.snapshot("b@1", new Chain.Snapshot("ns/b", 6, 1_100, 1_110));
        chain.decision("d3", new Chain.Decision("b@1", 1_150));
        chain.result(new Chain.Result("d3", Outcome.APPLIED, 1_300, 1_300));

        assertThat(chain.firstSightsUndecided()).as("b@1 has a decision; a@2 saw no change first").containsExactly("a@1");
        Chain.Account account = chain.account(cluster -> false, Set.of("a@1")::contains);

        assertThat(account.latencies()).extracting(Chain.Latency::heldWhenSeen).containsExactly(true, false);
        assertThat(account.heldWhenSeen()).isEqualTo(1);
        assertThat(account.actedWhenSeen()).isEqualTo(1);
        assertThat(account.quantile(Chain.Latency::appliedMs, 0.99)).as("every change acted on").isEqualTo(8_100);
        assertThat(account.actedQuantile(Chain.Latency::appliedMs, 0.99)).as("acted on when first seen").isEqualTo(300);
        assertThat(account.lost()).isZero();
    }

    @Test
    void aSnapshotSupersededBeforeItWasPlannedIsNotHeldWhenTheNewerOneIsActedOn() {
        changeDecidedOnItsSecondSnapshot(1_200, 1_400);

        Chain.Account account = chain.account(cluster -> false, snapshot -> false);

        assertThat(chain.firstSightsUndecided()).containsExactly("a@1");
        assertThat(account.actedWhenSeen()).isEqualTo(1);
        assertThat(account.actedQuantile(Chain.Latency::appliedMs, 0.5)).isEqualTo(400);
    }

    @Test
    void aChangeActedOnIsNotCountedAsWaitingEvenIfItsClusterWaitsNow() {
        changeAppliedAt("ns/a", 5, 1_000, 1_200);

        Chain.Account account = chain.account(cluster -> true, snapshot -> false);

        assertThat(account.waitingForLaunches()).isZero();
        assertThat(account.lost()).isZero();
    }

    @Test
    void theWarmUpsChangesAreTimedApartButStillCountWhenLost() {
        changeAppliedAt("ns/a", 5, 1_000, 1_400);
        chain.changed(new Chain.Change("ns/c", 3, 1_500));
        chain.skipped();
        chain.measureFrom(2_000);
        chain.skipped();
        changeAppliedAt("ns/a", 7, 2_000, 2_300);
        chain.changed(new Chain.Change("ns/b", 1, 2_500));

        Chain.Account account = chain.account(cluster -> false, snapshot -> false);

        assertThat(account.latencies()).extracting(Chain.Latency::appliedMs).containsExactly(300L, -1L);
        assertThat(account.warmUp()).extracting(Chain.Latency::appliedMs).containsExactly(400L, -1L);
        assertThat(account.warmUpQuantile(Chain.Latency::appliedMs, 0.99)).isEqualTo(400);
        assertThat(account.quantile(Chain.Latency::appliedMs, 0.99)).isEqualTo(300);
        assertThat(account.lost()).as("b's change, made while measuring, and c's, made in the warm-up").isEqualTo(2);
        assertThat(account.planningMs()).as("the measured change's decision only: the other was published in the warm-up").containsExactly(20);
        assertThat(account.actuator().waitingMs()).containsExactly(10);
        assertThat(account.actuator().handlingMs()).containsExactly(210);
        assertThat(account.snapshots()).isEqualTo(1);
        assertThat(account.decisions()).isEqualTo(1);
        assertThat(account.results()).isEqualTo(1);
        assertThat(account.skipped()).as("the change not made while measuring").isEqualTo(1);
    }

    @Test
    void aDecisionTakenUpLateIsToldApartWhenItWaitedForItsClustersPreviousOne() {
        chain.snapshot("a@1", new Chain.Snapshot("ns/a", 1, 900, 950));
        chain.snapshot("a@2", new Chain.Snapshot("ns/a", 2, 1_400, 1_450));
        chain.snapshot("b@1", new Chain.Snapshot("ns/b", 1, 900, 950));
        chain.decision("a1", new Chain.Decision("a@1", 1_000, true));
        chain.decision("a2", new Chain.Decision("a@2", 1_500));
        chain.decision("b1", new Chain.Decision("b@1", 1_000, true));
        chain.result(new Chain.Result("a1", Outcome.APPLIED, 1_010, 3_000));
        chain.result(new Chain.Result("a2", Outcome.APPLIED, 3_001, 3_100));
        chain.result(new Chain.Result("b1", Outcome.APPLIED, 2_500, 2_600));

        Chain.ActuatorTimes actuator = chain.account(cluster -> false, snapshot -> false).actuator();

        assertThat(actuator.waitingMs()).containsExactly(10, 1_500, 1_501);
        assertThat(actuator.growingWaitingMs()).as("a1 and b1 ask for more replicas").containsExactly(10, 1_500);
        assertThat(actuator.late()).as("a2 and b1").isEqualTo(2);
        assertThat(actuator.lateBehindTheirCluster()).as("a2, taken up when a1, applied from before a2 was published, was complete")
                .isEqualTo(1);
    }

    /**
     * A change to {@code cluster} at {@code at}, after GCS read {@code version}: seen by a snapshot observed 50 ms later and
     * published 10 ms after that, decided on 20 ms later, taken up 10 ms later and applied at {@code appliedAt}.
     */
    private void changeAppliedAt(String cluster, long version, long at, long appliedAt) {
        String snapshot = cluster + "@" + (version + 1);
        String decision = "d-" + snapshot;
        chain.changed(new Chain.Change(cluster, version, at));
        chain.snapshot(snapshot, new Chain.Snapshot(cluster, version + 1, at + 50, at + 60));
        chain.decision(decision, new Chain.Decision(snapshot, at + 80));
        chain.result(new Chain.Result(decision, Outcome.APPLIED, at + 90, appliedAt));
    }

    /**
     * A change to ns/a at 1,000 whose first snapshot (a@1, observed at 1,100) brought no decision, decided on from the
     * second (a@2, observed at {@code secondObservedAt}) and applied at {@code appliedAt}.
     */
    private void changeDecidedOnItsSecondSnapshot(long secondObservedAt, long appliedAt) {
        chain.changed(new Chain.Change("ns/a", 5, 1_000));
        chain.snapshot("a@1", new Chain.Snapshot("ns/a", 6, 1_100, 1_110));
        chain.snapshot("a@2", new Chain.Snapshot("ns/a", 7, secondObservedAt, secondObservedAt + 10));
        chain.decision("d2", new Chain.Decision("a@2", secondObservedAt + 50));
        chain.result(new Chain.Result("d2", Outcome.APPLIED, appliedAt, appliedAt));
    }
}
