package dev.rayscale.actuator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.rayscale.events.ActuationCause;
import dev.rayscale.events.ActuationResult;
import dev.rayscale.events.ScaleDecision;
import dev.rayscale.testsupport.RayClusters;
import io.ray.v1.RayCluster;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The lanes on their own: an applier that waits until the test lets each decision through, and a producer that records. */
class DecisionLanesTest {

    private static final Duration WITHIN = Duration.ofSeconds(10);

    private final ThreadPoolExecutor workers = DecisionLanes.workers(4, Thread::new);
    private final Map<String, CompletableFuture<Void>> gates = new ConcurrentHashMap<>();
    /** Each call to the applier: the decision's id, and the id of the newer one when it was answered superseded. */
    private final List<String> applied = new CopyOnWriteArrayList<>();
    /** The decisions whose results were handed to the producer, in that order. */
    private final List<String> sent = new CopyOnWriteArrayList<>();
    /** The namespaces whose lanes waited aside for their share of the workers. */
    private final List<String> shareReached = new CopyOnWriteArrayList<>();
    private final RayCluster a = stored("a");
    private final RayCluster b = stored("b");
    private final DecisionLanes lanes = recordingLanes(workers);
    private final ThreadPoolExecutor oneWorker = DecisionLanes.workers(1, Thread::new);

    @AfterEach
    void stop() {
        gates.values().forEach(gate -> gate.complete(null));
        workers.shutdownNow();
        oneWorker.shutdownNow();
    }

    /** Lanes with one worker, busy applying {@code elsewhere} until the test lets it through. */
    private DecisionLanes busyWith(ScaleDecision elsewhere) {
        DecisionLanes busy = recordingLanes(oneWorker);
        offer(busy, elsewhere);
        await().atMost(WITHIN).until(() -> applied.contains(elsewhere.id()));
        return busy;
    }

    /** Lanes over {@code pool} that apply with {@link #apply} and record what they send, as on a broker that takes all at once. */
    private DecisionLanes recordingLanes(ThreadPoolExecutor pool) {
        return new DecisionLanes(pool, this::apply, result -> {
            sent.add(result.decisionId());
            return CompletableFuture.completedFuture(null);
        }, 16, Integer.MAX_VALUE, shareReached::add);
    }

    private ActuationResult apply(ScaleDecision decision, ScaleDecision newer) {
        if (newer != null) {
            applied.add(decision.id() + " superseded by " + newer.id());
            return result(decision, ActuationCause.SUPERSEDED);
        }
        applied.add(decision.id());
        gate(decision).join();
        return result(decision, ActuationCause.PATCHED);
    }

    /** Offers a decision that nothing delivered with it supersedes. */
    private static CompletableFuture<Void> offer(DecisionLanes lanes, ScaleDecision decision) {
        return lanes.offer(decision, decision).toCompletableFuture();
    }

    /** Lets these decisions' applications finish, now or when they start. */
    private void letThrough(ScaleDecision... decisions) {
        for (ScaleDecision decision : decisions) {
            gate(decision).complete(null);
        }
    }

    private CompletableFuture<Void> gate(ScaleDecision decision) {
        return gates.computeIfAbsent(decision.id(), id -> new CompletableFuture<>());
    }

    private static ActuationResult result(ScaleDecision decision, ActuationCause cause) {
        return new ActuationResult(ActuationResult.SCHEMA_VERSION, "result-" + decision.id(), decision.cluster(), decision.id(),
                decision.snapshotId(), cause.outcome(), "test", cause, null, null, List.of(), Instant.now(), Instant.now(), 1, false);
    }

    /** A RayCluster as the API server returns it, with the uid and resourceVersion a decision names. */
    private static RayCluster stored(String name) {
        RayCluster cluster = RayClusters.walkthrough("default", name);
        cluster.getMetadata().setUid("uid-" + name);
        cluster.getMetadata().setResourceVersion("1");
        return cluster;
    }

    private static ScaleDecision decision(RayCluster cluster, long sequence) {
        return Decisions.scale(cluster, sequence, 0, (int) sequence, List.of());
    }

    /**
     * One namespace's slow clusters hold its share of the workers (here 1 of 4) while others may need them: the fourth
     * worker stays free, and another namespace's decision is applied at once, not behind them.
     */
    @Test
    void aNamespaceWithSlowClustersHoldsItsShareOfTheWorkersAndTheOthersGoOn() {
        DecisionLanes shared = new DecisionLanes(workers, this::apply, result -> {
            sent.add(result.decisionId());
            return CompletableFuture.completedFuture(null);
        }, 16, 1, shareReached::add);
        List<ScaleDecision> slow = List.of(decision(stored("noisy", "s1"), 1), decision(stored("noisy", "s2"), 1),
                decision(stored("noisy", "s3"), 1), decision(stored("noisy", "s4"), 1));
        slow.forEach(decision -> offer(shared, decision));
        await().atMost(WITHIN).until(() -> applied.size() == 3);
        assertThat(shareReached).as("the fourth waits aside: one worker stays free").contains("noisy");

        ScaleDecision other = decision(stored("quiet", "q1"), 1);
        letThrough(other);
        offer(shared, other);
        await().atMost(WITHIN).until(() -> sent.contains(other.id()));

        letThrough(slow.toArray(ScaleDecision[]::new));
        await().atMost(WITHIN).until(() -> sent.size() == 5);
        assertThat(applied).containsAll(slow.stream().map(ScaleDecision::id).toList());
    }

    private static RayCluster stored(String namespace, String name) {
        RayCluster cluster = stored(name);
        cluster.getMetadata().setNamespace(namespace);
        return cluster;
    }

    private static ScaleDecision shrinking(RayCluster cluster, long sequence) {
        return Decisions.scale(cluster, sequence, 5, 2, List.of());
    }

    @Test
    void aFreeWorkerTakesALaneThatGrowsItsClusterBeforeTheLanesThatDoNot() {
        ScaleDecision elsewhere = decision(a, 1);
        ScaleDecision firstDown = shrinking(b, 1);
        ScaleDecision up = decision(stored("c"), 1);
        ScaleDecision secondDown = shrinking(stored("d"), 1);
        DecisionLanes busy = busyWith(elsewhere);

        offer(busy, firstDown);
        offer(busy, up);
        offer(busy, secondDown);
        letThrough(elsewhere, firstDown, up, secondDown);

        await().atMost(WITHIN).until(() -> sent.size() == 4);
        assertThat(applied).containsExactly(elsewhere.id(), up.id(), firstDown.id(), secondDown.id());
    }

    @Test
    void aDecisionThatCameWhileItsClusterWasAppliedTakesItsTurnBehindTheLanesWaiting() {
        ScaleDecision first = decision(a, 1);
        ScaleDecision second = decision(a, 2);
        ScaleDecision waiting = decision(b, 1);
        DecisionLanes busy = busyWith(first);

        offer(busy, second);
        offer(busy, waiting);
        letThrough(first, second, waiting);

        await().atMost(WITHIN).until(() -> sent.size() == 3);
        assertThat(applied).containsExactly(first.id(), waiting.id(), second.id());
        await().atMost(WITHIN).until(() -> busy.busyClusters() == 0 && busy.open() == 0);
    }

    @Test
    void aLaneWaitingWithAScaleDownMovesUpWhenAScaleUpTakesItsPlace() {
        ScaleDecision elsewhere = decision(a, 1);
        ScaleDecision down = shrinking(b, 1);
        ScaleDecision otherDown = shrinking(stored("c"), 1);
        ScaleDecision upInstead = decision(b, 2);
        DecisionLanes busy = busyWith(elsewhere);

        offer(busy, otherDown);
        offer(busy, down);
        offer(busy, upInstead);
        letThrough(elsewhere, otherDown, upInstead);

        await().atMost(WITHIN).until(() -> sent.size() == 4);
        assertThat(applied).containsExactly(elsewhere.id(), down.id() + " superseded by " + upInstead.id(), upInstead.id(), otherDown.id());
        assertThat(oneWorker.getQueue()).as("the turn it had is not left behind").isEmpty();
    }

    @Test
    void aDecisionWaitingBehindItsClustersLastIsSupersededWithoutWorkWhenANewerComes() {
        ScaleDecision first = decision(a, 1);
        ScaleDecision waiting = decision(a, 2);
        ScaleDecision newest = decision(a, 3);

        CompletableFuture<Void> firstDone = offer(lanes, first);
        await().atMost(WITHIN).until(() -> applied.contains(first.id()));
        CompletableFuture<Void> waitingDone = offer(lanes, waiting);
        offer(lanes, newest);

        assertThat(applied).containsExactly(first.id(), waiting.id() + " superseded by " + newest.id());
        assertThat(waitingDone).as("its result leaves after the one it waited behind").isNotDone();
        assertThat(sent).isEmpty();

        letThrough(first);
        await().atMost(WITHIN).until(() -> applied.contains(newest.id()));
        letThrough(newest);
        await().atMost(WITHIN).until(() -> sent.size() == 3);
        assertThat(sent).as("in the order the decisions came").containsExactly(first.id(), waiting.id(), newest.id());
        assertThat(firstDone).isCompleted();
        assertThat(waitingDone).isCompleted();
        await().atMost(WITHIN).until(() -> lanes.busyClusters() == 0 && lanes.open() == 0);
    }

    @Test
    void aLaneWaitingForAWorkerTakesANewerDecisionInPlaceOfItsNextAndAppliesTheNewest() {
        ScaleDecision elsewhere = decision(a, 1);
        ScaleDecision queued = decision(b, 1);
        ScaleDecision newest = decision(b, 2);
        DecisionLanes busy = busyWith(elsewhere);

        CompletableFuture<Void> queuedDone = offer(busy, queued);
        offer(busy, newest);

        assertThat(queuedDone).as("answered and on the broker while its lane still waits for the worker").isCompleted();
        assertThat(sent).containsExactly(queued.id());
        assertThat(busy.open()).as("the newest waiting, the other cluster's being applied").isEqualTo(2);
        letThrough(elsewhere, newest);
        await().atMost(WITHIN).until(() -> sent.size() == 3);
        assertThat(applied).containsExactly(elsewhere.id(), queued.id() + " superseded by " + newest.id(), newest.id());
        assertThat(sent).containsExactly(queued.id(), elsewhere.id(), newest.id());
    }

    @Test
    void anOlderDecisionArrivingLateIsTheOneSuperseded() {
        ScaleDecision first = decision(a, 1);
        ScaleDecision newest = decision(a, 3);
        ScaleDecision late = decision(a, 2);

        offer(lanes, first);
        await().atMost(WITHIN).until(() -> applied.contains(first.id()));
        offer(lanes, newest);
        offer(lanes, late);
        letThrough(first, newest);

        await().atMost(WITHIN).until(() -> sent.size() == 3);
        assertThat(applied).containsExactly(first.id(), late.id() + " superseded by " + newest.id(), newest.id());
        assertThat(sent).containsExactly(first.id(), newest.id(), late.id());
    }

    @Test
    void aDecisionSupersededInItsBatchIsAnsweredAtOnce() {
        ScaleDecision older = decision(a, 1);
        ScaleDecision newest = decision(a, 2);

        CompletionStage<Void> olderDone = lanes.offer(older, newest);

        assertThat(olderDone).isCompleted();
        assertThat(applied).containsExactly(older.id() + " superseded by " + newest.id());
        assertThat(lanes.busyClusters()).isZero();
    }

    @Test
    void anotherClustersDecisionIsAppliedWhileOneClusterWaits() {
        ScaleDecision slow = decision(a, 1);
        ScaleDecision quick = decision(b, 1);
        letThrough(quick);

        CompletableFuture<Void> slowDone = offer(lanes, slow);
        CompletableFuture<Void> quickDone = offer(lanes, quick);

        await().atMost(WITHIN).until(() -> quickDone.isDone());
        assertThat(sent).containsExactly(quick.id());
        assertThat(slowDone).isNotDone();
    }

    @Test
    void aFailureSettlesOnlyItsOwnDecisionAndTheLaneGoesOn() {
        ScaleDecision failing = decision(a, 1);
        CompletableFuture<Void> failingDone = offer(lanes, failing);
        await().atMost(WITHIN).until(() -> applied.contains(failing.id()));
        ScaleDecision next = decision(a, 2);
        letThrough(next);
        CompletableFuture<Void> nextDone = offer(lanes, next);
        gate(failing).completeExceptionally(new IllegalStateException("the API server is gone"));

        await().atMost(WITHIN).until(() -> nextDone.isDone());
        assertThat(failingDone).isCompletedExceptionally();
        assertThat(nextDone).isCompleted();
        assertThat(sent).containsExactly(next.id());
        assertThat(lanes.open()).isZero();
    }

    @Test
    void aProducerThatThrowsFailsThatResultOnlyAndTheLaneGoesOn() {
        AtomicBoolean refuse = new AtomicBoolean(true);
        DecisionLanes refusing = new DecisionLanes(workers, this::apply, result -> {
            if (refuse.getAndSet(false)) {
                throw new IllegalStateException("SRMSG00034: Insufficient downstream requests to emit item");
            }
            sent.add(result.decisionId());
            return CompletableFuture.completedFuture(null);
        }, 16, Integer.MAX_VALUE, shareReached::add);
        ScaleDecision refused = decision(a, 1);
        ScaleDecision next = decision(a, 2);
        letThrough(refused, next);

        CompletableFuture<Void> refusedDone = offer(refusing, refused);
        await().atMost(WITHIN).until(() -> refusedDone.isDone());
        CompletableFuture<Void> nextDone = offer(refusing, next);

        await().atMost(WITHIN).until(() -> nextDone.isDone());
        assertThat(refusedDone).isCompletedExceptionally();
        assertThat(sent).containsExactly(next.id());
    }

    @Test
    void closedLanesFinishWhatIsBeingAppliedAndStartNothingMore() throws Exception {
        ScaleDecision applying = decision(a, 1);
        ScaleDecision waiting = decision(a, 2);
        ScaleDecision idleCluster = decision(b, 1);
        offer(lanes, applying);
        await().atMost(WITHIN).until(() -> applied.contains(applying.id()));
        CompletableFuture<Void> waitingDone = offer(lanes, waiting);

        CompletableFuture<Boolean> closed = CompletableFuture.supplyAsync(() -> {
            try {
                return lanes.close(WITHIN);
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        await().atMost(WITHIN).until(() -> !lanes.awaitRoom());
        assertThat(closed).as("waits for the decision being applied").isNotDone();
        letThrough(applying);

        assertThat(closed.get()).isTrue();
        CompletableFuture<Void> afterClosing = offer(lanes, idleCluster);
        assertThat(applied).containsExactly(applying.id());
        assertThat(sent).containsExactly(applying.id());
        assertThat(waitingDone).as("left for the partition's next reader").isNotDone();
        assertThat(afterClosing).isNotDone();
    }

    @Test
    void closingGivesUpAfterItsPatience() throws Exception {
        ScaleDecision stuck = decision(a, 1);
        offer(lanes, stuck);
        await().atMost(WITHIN).until(() -> applied.contains(stuck.id()));

        assertThat(lanes.close(Duration.ofMillis(50))).isFalse();
    }

    @Test
    void theLanesTakeInNoMoreThanTheirCapacityUntilResultsAreOnTheBroker() {
        CompletableFuture<Void> broker = new CompletableFuture<>();
        DecisionLanes tight = new DecisionLanes(workers, this::apply, result -> {
            sent.add(result.decisionId());
            return broker;
        }, 2, Integer.MAX_VALUE, shareReached::add);
        ScaleDecision first = decision(a, 1);
        ScaleDecision second = decision(b, 1);
        letThrough(first, second);
        offer(tight, first);
        offer(tight, second);
        await().atMost(WITHIN).until(() -> sent.size() == 2);

        CompletableFuture<Boolean> room = CompletableFuture.supplyAsync(() -> {
            try {
                return tight.awaitRoom();
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        assertThat(tight.open()).isEqualTo(2);
        await().during(Duration.ofMillis(200)).atMost(WITHIN).until(() -> !room.isDone());

        broker.complete(null);
        await().atMost(WITHIN).until(room::isDone);
        assertThat(room.join()).isTrue();
        assertThat(tight.open()).isZero();
    }
}
