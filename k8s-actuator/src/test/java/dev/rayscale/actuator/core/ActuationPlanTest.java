package dev.rayscale.actuator.core;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.rayscale.events.ActuationCause;
import dev.rayscale.events.ClusterRef;
import dev.rayscale.events.DeletionCause;
import dev.rayscale.events.GroupTarget;
import dev.rayscale.events.PlannerInfo;
import dev.rayscale.events.PodDeletion;
import dev.rayscale.events.ScaleDecision;
import dev.rayscale.events.codec.EventJson;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The actuator's core, pure: what a decision becomes on an observed RayCluster, case by case. */
class ActuationPlanTest {

    private static final Instant NOW = Instant.parse("2026-11-30T12:00:00Z");
    private static final String UID = "uid-1";

    /** A named case: a cluster, a decision, and what must hold of the plan. */
    record Case(ObservedCluster cluster, ScaleDecision decision, Consumer<ActuationPlan> check) {
    }

    static Stream<Named<Case>> cases() {
        return Stream.of(
                named("drains first and names only the pods Ray accepted; replicas drop by exactly those",
                        cluster(group("cpu", 3), pods("cpu", "a", "b", "c"), live("a", "na", "b", "nb", "c", "nc")),
                        decision(target("cpu", 3, 1, idle("a", "na"), idle("b", "nb"))),
                        plan -> {
                            assertThat(plan.toDrain()).extracting(PodDeletion::podName).containsExactly("a", "b");
                            plan.settle(Map.of("b", "Ray refused the drain"));
                            GroupPlan group = plan.groups().get(0);
                            assertThat(group.acceptedPods()).containsExactly("a");
                            assertThat(group.replicasAfter()).isEqualTo(2);
                        }),
                named("a pod whose raylet restarted since the snapshot is not drained (facts A4.20, A3.11)",
                        cluster(group("cpu", 2), pods("cpu", "a", "b"), live("a", "new-a", "b", "nb")),
                        decision(target("cpu", 2, 0, idle("a", "old-a"), idle("b", "nb"))),
                        plan -> {
                            assertThat(plan.toDrain()).extracting(PodDeletion::podName).containsExactly("b");
                            assertThat(plan.rejections()).singleElement().satisfies(r -> {
                                assertThat(r.podName()).isEqualTo("a");
                                assertThat(r.reason()).contains("raylet restarted");
                            });
                            plan.settle(Map.of());
                            assertThat(plan.groups().get(0).replicasAfter()).isEqualTo(1);
                        }),
                named("a pod whose node is no longer alive is not drained: a drain of a dead node is accepted by anyone",
                        cluster(group("cpu", 1), pods("cpu", "a"), live()),
                        decision(target("cpu", 1, 0, idle("a", "na"))),
                        plan -> {
                            assertThat(plan.toDrain()).isEmpty();
                            assertThat(plan.rejections()).singleElement().satisfies(r -> assertThat(r.reason()).contains("no longer alive"));
                        }),
                named("a pod with two live raylets (one restarting) is ambiguous and kept",
                        cluster(group("cpu", 1), pods("cpu", "a"), Map.of("a", List.of("na", "na2"))),
                        decision(target("cpu", 1, 0, idle("a", "na"))),
                        plan -> assertThat(plan.toDrain()).isEmpty()),
                named("a new raylet seen after the drain keeps the pod",
                        cluster(group("cpu", 1), pods("cpu", "a"), live("a", "na")),
                        decision(target("cpu", 1, 0, idle("a", "na"))),
                        plan -> {
                            plan.settle(Map.of());
                            plan.recheck(Map.of("a", List.of("na2")));
                            assertThat(plan.groups().get(0).acceptedPods()).isEmpty();
                            assertThat(plan.changes()).isFalse();
                        }),
                named("replicas never drop below the pods left unnamed, terminating ones included (facts B6.27, B6.28)",
                        cluster(group("cpu", 3), pods("cpu", "a", "b", "c", "evicted!"), live("a", "na", "b", "nb", "c", "nc")),
                        decision(target("cpu", 3, 2, idle("a", "na"))),
                        plan -> {
                            plan.settle(Map.of());
                            assertThat(plan.groups().get(0).replicasAfter()).as("b, c and the terminating pod still count").isEqualTo(3);
                            assertThat(plan.groups().get(0).workersToDeleteAfter()).containsExactly("a");
                        }),
                named("a multi-host replica goes whole or not at all",
                        cluster(hosts(group("tpu", 2), 2), replicaPods("tpu", Map.of("r0-h0", "r0", "r0-h1", "r0", "r1-h0", "r1", "r1-h1", "r1")),
                                live("r0-h0", "n00", "r0-h1", "n01", "r1-h0", "n10", "r1-h1", "n11")),
                        decision(target("tpu", 2, 0, idle("r0-h0", "n00"), idle("r0-h1", "n01"), idle("r1-h0", "n10"), idle("r1-h1", "n11"))),
                        plan -> {
                            plan.settle(Map.of("r1-h1", "busy"));
                            GroupPlan group = plan.groups().get(0);
                            assertThat(group.acceptedPods()).containsExactly("r0-h0", "r0-h1");
                            assertThat(group.replicasAfter()).isEqualTo(1);
                            assertThat(group.rejected()).extracting(r -> r.podName()).containsExactlyInAnyOrder("r1-h1", "r1-h0");
                        }),
                named("the hosts of a replica are drained in one turn, the least idle by the fresh GCS read first (A3.14, B8.33)",
                        cluster(hosts(group("tpu", 2), 2), replicaPods("tpu", Map.of("r0-h0", "r0", "r0-h1", "r0", "r1-h0", "r1", "r1-h1", "r1")),
                                live("r0-h0", "n00", "r0-h1", "n01", "r1-h0", "n10", "r1-h1", "n11"))
                                .withLiveNodes(new LiveNodes(live("r0-h0", "n00", "r0-h1", "n01", "r1-h0", "n10", "r1-h1", "n11"),
                                        Map.of("n00", 60_000L, "n01", 0L, "n10", 30_000L, "n11", 90_000L))),
                        decision(target("tpu", 2, 0, idle("r0-h0", "n00"), idle("r0-h1", "n01"), idle("r1-h0", "n10"), idle("r1-h1", "n11"))),
                        plan -> assertThat(plan.drainTurns()).extracting(turn -> turn.stream().map(PodDeletion::podName).toList())
                                .containsExactly(List.of("r0-h1", "r0-h0"), List.of("r1-h0", "r1-h1"))),
                named("single-host pods are drained side by side, each its own turn",
                        cluster(group("cpu", 2), pods("cpu", "a", "b"), live("a", "na", "b", "nb")),
                        decision(target("cpu", 2, 0, idle("a", "na"), idle("b", "nb"))),
                        plan -> assertThat(plan.drainTurns()).extracting(turn -> turn.stream().map(PodDeletion::podName).toList())
                                .containsExactly(List.of("a"), List.of("b"))),
                named("no new names while the operator still deletes the previous ones; once gone, the old names are cleared (B6.26)",
                        cluster(workersToDelete(group("cpu", 2), "gone"), pods("cpu", "a"), live("a", "na")),
                        decision(new GroupTarget("cpu", 0, 2, 1, List.of("gone"), List.of(idle("a", "na")), List.of())),
                        plan -> {
                            plan.settle(Map.of());
                            assertThat(plan.groups().get(0).workersToDeleteAfter()).containsExactly("a");
                            assertThat(plan.groups().get(0).replicasAfter()).isEqualTo(1);
                        }),
                named("a replaced pod keeps its replica",
                        cluster(group("cpu", 3), Map.of("stuck", new ObservedCluster.ObservedPod("stuck", "cpu", "stuck", "Pending", false)), live()),
                        decision(target("cpu", 3, 3, new PodDeletion("stuck", null, DeletionCause.STUCK_PENDING, null))),
                        plan -> {
                            plan.settle(Map.of());
                            assertThat(plan.groups().get(0).acceptedPods()).containsExactly("stuck");
                            assertThat(plan.groups().get(0).replicasAfter()).isEqualTo(3);
                        }),
                named("finishing after a conflict removes only what was drained, against the cluster as it is now",
                        cluster(group("cpu", 3), pods("cpu", "a", "b", "c"), live("a", "na", "b", "nb", "c", "nc")),
                        decision(target("cpu", 3, 4, idle("a", "na"))),
                        plan -> {
                            plan.settle(Map.of());
                            ObservedCluster changed = cluster(group("cpu", 5), pods("cpu", "a", "b", "c", "d", "e"), live("b", "nb", "c", "nc"));
                            ActuationPlan finishing = ActuationPlan.finishing(plan, changed);
                            GroupPlan group = finishing.groups().get(0);
                            assertThat(group.acceptedPods()).containsExactly("a");
                            assertThat(group.replicasAfter()).as("the 5 it has now, less the drained pod; the decision's 4 is not applied").isEqualTo(4);
                        }));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void plans(Case planCase) {
        planCase.check().accept(ActuationPlan.of(planCase.decision(), planCase.cluster()));
    }

    /** A named verdict case: a cluster, a decision, the kind of verdict expected and, for a stale one, its cause. */
    record VerdictCase(ObservedCluster cluster, ScaleDecision decision, Class<? extends Verdict> expected, ActuationCause cause) {
    }

    static Stream<Named<VerdictCase>> verdicts() {
        ObservedCluster cluster = cluster(group("cpu", 2), pods("cpu", "a", "b"), live());
        return Stream.of(
                Named.of("fresh", new VerdictCase(cluster, decision(target("cpu", 2, 3)), Verdict.Fresh.class, null)),
                Named.of("expired", new VerdictCase(cluster, decision(NOW.minusSeconds(1), target("cpu", 2, 3)), Verdict.Withheld.class,
                        ActuationCause.EXPIRED)),
                Named.of("a RayCluster re-created under the same name",
                        new VerdictCase(withUid(cluster, "uid-2"), decision(target("cpu", 2, 3)), Verdict.Withheld.class,
                                ActuationCause.CLUSTER_RECREATED)),
                Named.of("a newer decision applied",
                        new VerdictCase(withMark(cluster, new AppliedMark(20, "d-20", true)), decision(target("cpu", 2, 3)), Verdict.Withheld.class,
                                ActuationCause.SUPERSEDED)),
                Named.of("this very decision applied",
                        new VerdictCase(withMark(cluster, new AppliedMark(10, "d-10", true)), decision(target("cpu", 2, 3)),
                                Verdict.AlreadyApplied.class, null)),
                Named.of("a group it relied on changed",
                        new VerdictCase(cluster(group("cpu", 4), pods("cpu"), live()), decision(target("cpu", 2, 3)), Verdict.Withheld.class,
                                ActuationCause.CLUSTER_CHANGED)),
                Named.of("the cluster opted out", new VerdictCase(optedOut(cluster), decision(target("cpu", 2, 3)), Verdict.Withheld.class,
                        ActuationCause.OPTED_OUT)),
                Named.of("the cluster turned its in-tree autoscaler on", new VerdictCase(inTreeAutoscaling(cluster),
                        decision(target("cpu", 2, 3)), Verdict.Withheld.class, ActuationCause.IN_TREE_AUTOSCALING)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("verdicts")
    void judges(VerdictCase verdictCase) {
        Verdict verdict = Verdict.of(verdictCase.decision(), verdictCase.cluster(), NOW);

        assertThat(verdict).isInstanceOf(verdictCase.expected());
        if (verdict instanceof Verdict.Withheld stale) {
            assertThat(stale.cause()).isEqualTo(verdictCase.cause());
        }
    }

    /**
     * A named case of the steps between the shell's reads: judged on {@code cluster} (null: deleted), drains answered
     * with {@code refusals}, settled at {@code at}; then how it ends ({@code null}: it is written) and what it says.
     */
    record StepCase(ObservedCluster cluster, ScaleDecision decision, Map<String, String> refusals, boolean dryRun, Instant at,
            ActuationCause ends, boolean inForce, List<String> notices) {
    }

    static Stream<Named<StepCase>> steps() {
        ObservedCluster three = cluster(group("cpu", 3), pods("cpu", "a", "b", "c"), live("a", "na", "b", "nb", "c", "nc"));
        ScaleDecision removeTwo = decision(target("cpu", 3, 1, idle("a", "na"), idle("b", "nb")));
        Instant late = NOW.plusSeconds(61);
        return Stream.of(
                Named.of("a change is written", new StepCase(three, removeTwo, Map.of(), false, NOW, null, false, List.of())),
                Named.of("every removal refused: nothing written, and the decision in force",
                        new StepCase(three, removeTwo, Map.of("a", "busy", "b", "busy"), false, NOW, ActuationCause.DRAINS_REFUSED, true,
                                List.of())),
                Named.of("nothing to change: in force, so the GCS is told",
                        new StepCase(three, decision(target("cpu", 3, 3)), Map.of(), false, NOW, ActuationCause.ALREADY_MATCHES, true,
                                List.of())),
                Named.of("a dry run says what it would change and is not in force",
                        new StepCase(three, decision(target("cpu", 3, 5)), Map.of(), true, NOW, ActuationCause.DRY_RUN, false,
                                List.of("ScaledUp: (dry run) cpu: replicas 3 -> 5 (decision d-10)"))),
                Named.of("expired while its drains ran, one drained: only the removal is written",
                        new StepCase(three, removeTwo, Map.of("b", "busy"), false, late, null, false, List.of())),
                Named.of("expired while its drains ran, none drained: nothing written",
                        new StepCase(three, decision(NOW.plusSeconds(60), target("cpu", 3, 5)), Map.of(), false, late,
                                ActuationCause.EXPIRED, false, List.of())),
                Named.of("the RayCluster is gone", new StepCase(null, removeTwo, Map.of(), false, NOW, ActuationCause.CLUSTER_DELETED,
                        false, List.of())),
                Named.of("a changed group: stale, with a warning on the cluster",
                        new StepCase(cluster(group("cpu", 4), pods("cpu"), live()), removeTwo, Map.of(), false, NOW,
                                ActuationCause.CLUSTER_CHANGED, false, List.of("StaleDecision: decision d-10 not applied: worker group "
                                        + "cpu has replicas 4 now; the decision assumed 3"))),
                Named.of("superseded by a newer decision applied: stale, and no warning for the normal course of a backlog",
                        new StepCase(withMark(three, new AppliedMark(20, "d-20", true)), removeTwo, Map.of(), false, NOW,
                                ActuationCause.SUPERSEDED, false, List.of())));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("steps")
    void steps(StepCase step) {
        Actuation.Next next = Actuation.judge(step.decision(), step.cluster(), NOW, step.dryRun());
        if (next instanceof Actuation.Drain drain) {
            drain.plan().settle(step.refusals());
            next = Actuation.afterDrains(step.decision(), drain.plan(), drain.dryRun(), step.at());
        }

        if (step.ends() == null) {
            assertThat(next).isInstanceOfSatisfying(Actuation.Write.class, write -> assertThat(write.expiry() != null)
                    .as("only finishing an expired decision's removals").isEqualTo(step.at().isAfter(step.decision().expiresAt())));
            return;
        }
        assertThat(next).isInstanceOfSatisfying(Actuation.End.class, end -> {
            assertThat(end.ending().cause()).isEqualTo(step.ends());
            assertThat(end.ending().inForce()).isEqualTo(step.inForce());
            assertThat(end.ending().notices()).extracting(notice -> notice.reason() + ": " + notice.message())
                    .containsExactlyElementsOf(step.notices());
        });
    }

    @Test
    void aWriteThatOnlyFinishesAnExpiredDecisionsRemovalsSaysSo() {
        ScaleDecision decision = decision(target("cpu", 3, 1, idle("a", "na"), idle("b", "nb")));
        ActuationPlan plan = ActuationPlan.of(decision, cluster(group("cpu", 3), pods("cpu", "a", "b", "c"),
                live("a", "na", "b", "nb", "c", "nc")));
        plan.settle(Map.of("b", "busy"));
        Actuation.Write write = (Actuation.Write) Actuation.afterDrains(decision, plan, false, NOW.plusSeconds(61));

        assertThat(write.plan().groups()).singleElement().satisfies(group -> {
            assertThat(group.acceptedPods()).containsExactly("a");
            assertThat(group.replicasAfter()).isEqualTo(2);
        });
        Ending patched = write.concluded(Ending.patched(decision, write.plan(), "100", "101", 1, ""));
        assertThat(patched.cause()).isEqualTo(ActuationCause.DRAINED_PODS_REMOVED);
        assertThat(patched.reason()).startsWith("expired at " + decision.expiresAt() + " while its drains ran; only the drained "
                + "pods were removed: cpu replicas 3 -> 2");
        assertThat(patched.inForce()).isTrue();
        Ending conflicted = write.concluded(Ending.notWritten(decision, write.plan(), "100", 2, true, "HTTP 422"));
        assertThat(conflicted.cause()).isEqualTo(ActuationCause.CONCURRENT_CHANGE);
        assertThat(conflicted.notices()).singleElement().satisfies(notice -> assertThat(notice.message())
                .contains("drained and not removed: [a]"));
    }

    @Test
    void aDecisionFromANewerSnapshotDeliveredWithItSupersedesItBeforeAnyRead() {
        ScaleDecision older = decision(target("cpu", 2, 3));
        ScaleDecision newer = new ScaleDecision(older.schemaVersion(), "d-11", older.cluster(), "snap-11", 11, older.resourceVersion(),
                older.decidedAt(), older.expiresAt(), older.groups(), List.of(), List.of(), List.of(), null, List.of(), List.of(),
                older.planner());

        assertThat(Verdict.beforeReading(older, newer, null, NOW)).isInstanceOfSatisfying(Verdict.Withheld.class, stale -> {
            assertThat(stale.cause()).isEqualTo(ActuationCause.SUPERSEDED);
            assertThat(stale.superseded()).isTrue();
        });
        assertThat(Verdict.beforeReading(newer, older, null, NOW)).isInstanceOf(Verdict.Fresh.class);
    }

    @Test
    void aDecisionMadeBeforeThisActuatorsLastWriteChangedWhatItAssumedIsSupersededBeforeAnyRead() {
        ScaleDecision waiting = decision(target("cpu", 2, 3));
        Instant afterIt = waiting.decidedAt().plusSeconds(1);

        assertThat(Verdict.beforeReading(waiting, null, written("d-9", afterIt, cluster(group("cpu", 3))), NOW))
                .isInstanceOfSatisfying(Verdict.Withheld.class, stale -> {
                    assertThat(stale.superseded()).as("the normal course of a queue: no warning").isTrue();
                    assertThat(stale.reason()).startsWith("superseded by decision d-9, applied at " + afterIt + ", after this one was "
                            + "made at " + waiting.decidedAt() + ": worker group cpu has replicas 3 now; the decision assumed 2");
                });
        assertThat(Verdict.beforeReading(waiting, null, written("d-9", waiting.decidedAt().minusSeconds(1), cluster(group("cpu", 3))),
                NOW)).as("made after the write: it may have seen it, so the RayCluster is read").isInstanceOf(Verdict.Fresh.class);
        assertThat(Verdict.beforeReading(waiting, null, written("d-9", afterIt, cluster(group("cpu", 2))), NOW))
                .as("the write left the group as the decision assumed").isInstanceOf(Verdict.Fresh.class);
        assertThat(Verdict.beforeReading(waiting, null, written("d-10", afterIt, cluster(group("cpu", 3))), NOW))
                .as("this very decision, delivered again: read, to answer that it was applied").isInstanceOf(Verdict.Fresh.class);
        assertThat(Verdict.beforeReading(waiting, null, written("d-9", afterIt, withUid(cluster(group("cpu", 3)), "uid-2")), NOW))
                .as("written to another RayCluster of the same name").isInstanceOf(Verdict.Fresh.class);
    }

    @Test
    void aDecisionRemovingNoPodOnAClusterThisActuatorWroteLastIsPlannedOnWhatThatWriteLeft() {
        LastWrite last = written("d-9", NOW.minusSeconds(5), withMark(cluster(group("cpu", 3)), new AppliedMark(9, "d-9", true)));

        assertThat(Actuation.unreadWrite(decision(target("cpu", 3, 5)), last, NOW, false)).hasValueSatisfying(plan -> {
            assertThat(plan.groups().get(0).replicasAfter()).isEqualTo(5);
            assertThat(plan.cluster()).isSameAs(last.after());
        });
    }

    @Test
    void whatOnlyAReadMaySayIsReadFor() {
        ObservedCluster after = withMark(cluster(group("cpu", 3)), new AppliedMark(9, "d-9", true));
        LastWrite last = written("d-9", NOW.minusSeconds(5), after);

        assertThat(Actuation.unreadWrite(decision(target("cpu", 3, 5)), null, NOW, false)).as("no write known").isEmpty();
        assertThat(Actuation.unreadWrite(decision(target("cpu", 3, 5)),
                new LastWrite("d-9", NOW.minusSeconds(5), after, null, Map.of()), NOW, false)).as("an API server keeping no generation").isEmpty();
        assertThat(Actuation.unreadWrite(decision(target("cpu", 3, 2, idle("a", "na"))), last, NOW, false))
                .as("pods to remove: they and the GCS are read").isEmpty();
        assertThat(Actuation.unreadWrite(decision(target("cpu", 2, 5)), last, NOW, false))
                .as("stale on what the write left (it may have changed back since)").isEmpty();
        assertThat(Actuation.unreadWrite(decision(target("cpu", 3, 3)), last, NOW, false)).as("nothing to change").isEmpty();
        assertThat(Actuation.unreadWrite(decision(target("cpu", 3, 5)), last, NOW, true)).as("a dry run configured").isEmpty();
        assertThat(Actuation.unreadWrite(decision(target("cpu", 3, 5)), written("d-9", NOW.minusSeconds(5), dryRun(after)), NOW, false))
                .as("a cluster asking for dry runs").isEmpty();
        assertThat(Actuation.unreadWrite(decision(target("cpu", 3, 5)),
                written("d-10", NOW.minusSeconds(5), withMark(after, new AppliedMark(10, "d-10", true))), NOW, false))
                .as("this very decision, written already").isEmpty();
        assertThat(Actuation.unreadWrite(decision(NOW.minusSeconds(1), target("cpu", 3, 5)), last, NOW, false)).as("expired").isEmpty();
    }

    @Test
    void aPatchWithoutAReadFirstTestsThatTheSpecAndAnnotationsAreAsTheLastWriteLeftThem() throws Exception {
        ObservedCluster after = withMark(cluster(group("cpu", 3)), new AppliedMark(9, "d-9", true));
        LastWrite last = new LastWrite("d-9", NOW.minusSeconds(5), after, 7L,
                Map.of("rayscale.dev/autoscaling", "enabled", "rayscale.dev/last-applied-decision", "d-9"));
        ActuationPlan plan = Actuation.unreadWrite(decision(target("cpu", 3, 5)), last, NOW, false).orElseThrow();
        AppliedMark mark = new AppliedMark(10, "d-10", true);

        JsonNode patch = EventJson.mapper().readTree(Patches.buildUnread(plan, mark, last));
        JsonNode read = EventJson.mapper().readTree(Patches.build(plan, mark));

        assertThat(patch.get(0).toString()).isEqualTo("{\"op\":\"test\",\"path\":\"/metadata/generation\",\"value\":7}");
        assertThat(patch.get(1).toString()).isEqualTo("{\"op\":\"test\",\"path\":\"/metadata/annotations\",\"value\":"
                + "{\"rayscale.dev/autoscaling\":\"enabled\",\"rayscale.dev/last-applied-decision\":\"d-9\"}}");
        assertThat(read.get(0).toString()).as("a read's patch tests the spec as read")
                .isEqualTo("{\"op\":\"test\",\"path\":\"/metadata/generation\",\"value\":7}");
        assertThat(read.get(1).toString()).as("and the opt-in")
                .isEqualTo("{\"op\":\"test\",\"path\":\"/metadata/annotations/rayscale.dev~1autoscaling\",\"value\":\"enabled\"}");
        assertThat(patch.size()).isEqualTo(read.size());
        for (int i = 2; i < read.size(); i++) {
            assertThat(patch.get(i)).as("then the same as a read's patch").isEqualTo(read.get(i));
        }
    }

    /**
     * The race ClosedLoopTest's eviction-churn scenario found: while the drains ran, a named pod was lost with its node and
     * the operator, still at the old replicas, created another in its place. Counted from the first read, the patch would
     * leave one pod more than its replicas, and the operator would delete one of its own choosing (fact B6.27).
     */
    @Test
    void aPodLostWhileTheDrainsRanKeepsItsReplicaAndItsReplacementIsCounted() {
        ActuationPlan plan = twoOfThreeDrained();

        plan.podsNow(pods("cpu", "b", "c", "d"));

        GroupPlan group = plan.groups().get(0);
        assertThat(group.workersToDeleteAfter()).as("a is gone: naming it does nothing").containsExactly("b");
        assertThat(group.replicasAfter()).as("c and d stay, b goes").isEqualTo(2);
        assertThat(group.rejected()).singleElement().satisfies(kept -> assertThat(kept.reason()).contains("was gone"));
    }

    /**
     * As above, the replacement not made yet when the pods are read again: the operator makes it under the replicas it has
     * until it sees the patch, or under the patch's. Either way the replica of the pod gone is kept, and the patch does not
     * rely on when the replacement comes.
     */
    @Test
    void aPodLostWhileTheDrainsRanKeepsItsReplicaBeforeItsReplacementExists() {
        ActuationPlan plan = twoOfThreeDrained();

        plan.podsNow(pods("cpu", "b", "c"));

        GroupPlan group = plan.groups().get(0);
        assertThat(group.workersToDeleteAfter()).containsExactly("b");
        assertThat(group.replicasAfter()).as("c, and the replacement of a to come").isEqualTo(2);
    }

    /** Three pods, a and b drained (both accepted), so that replicas would drop to 1. */
    private static ActuationPlan twoOfThreeDrained() {
        ActuationPlan plan = ActuationPlan.of(decision(target("cpu", 3, 1, idle("a", "na"), idle("b", "nb"))),
                cluster(group("cpu", 3), pods("cpu", "a", "b", "c"), live("a", "na", "b", "nb", "c", "nc")));
        plan.settle(Map.of());
        assertThat(plan.groups().get(0).replicasAfter()).isEqualTo(1);
        return plan;
    }

    @Test
    void thePatchTestsEverythingTheDecisionReliedOn() throws Exception {
        ObservedCluster cluster = withMark(cluster(group("cpu", 3), group("gpu", 1)), new AppliedMark(8, "d-8", true));
        ScaleDecision decision = decision(target("cpu", 3, 5), new GroupTarget("gpu", 1, 1, 1, List.of(), List.of(), List.of()));
        ActuationPlan plan = ActuationPlan.of(decision, cluster);
        plan.settle(Map.of());

        JsonNode patch = EventJson.mapper().readTree(Patches.build(plan, new AppliedMark(9, "d-9", true)));

        assertThat(patch.toString()).isEqualTo("["
                + "{\"op\":\"test\",\"path\":\"/metadata/generation\",\"value\":7},"
                + "{\"op\":\"test\",\"path\":\"/metadata/annotations/rayscale.dev~1autoscaling\",\"value\":\"enabled\"},"
                + "{\"op\":\"test\",\"path\":\"/metadata/uid\",\"value\":\"uid-1\"},"
                + "{\"op\":\"test\",\"path\":\"/metadata/annotations/rayscale.dev~1last-applied-sequence\",\"value\":\"8\"},"
                + "{\"op\":\"test\",\"path\":\"/metadata/annotations/rayscale.dev~1last-applied-decision\",\"value\":\"d-8\"},"
                + "{\"op\":\"test\",\"path\":\"/spec/workerGroupSpecs/0/groupName\",\"value\":\"cpu\"},"
                + "{\"op\":\"test\",\"path\":\"/spec/workerGroupSpecs/0/replicas\",\"value\":3},"
                + "{\"op\":\"test\",\"path\":\"/spec/workerGroupSpecs/0/scaleStrategy/workersToDelete\",\"value\":[]},"
                + "{\"op\":\"test\",\"path\":\"/spec/workerGroupSpecs/1/groupName\",\"value\":\"gpu\"},"
                + "{\"op\":\"test\",\"path\":\"/spec/workerGroupSpecs/1/replicas\",\"value\":1},"
                + "{\"op\":\"test\",\"path\":\"/spec/workerGroupSpecs/1/scaleStrategy/workersToDelete\",\"value\":[]},"
                + "{\"op\":\"replace\",\"path\":\"/spec/workerGroupSpecs/0/replicas\",\"value\":5},"
                + "{\"op\":\"add\",\"path\":\"/spec/workerGroupSpecs/0/scaleStrategy\",\"value\":{\"workersToDelete\":[]}},"
                + "{\"op\":\"add\",\"path\":\"/metadata/annotations/rayscale.dev~1last-applied-sequence\",\"value\":\"9\"},"
                + "{\"op\":\"add\",\"path\":\"/metadata/annotations/rayscale.dev~1last-applied-decision\",\"value\":\"d-9\"},"
                + "{\"op\":\"add\",\"path\":\"/metadata/annotations/rayscale.dev~1last-applied-groups\","
                + "\"value\":\"{\\\"cpu\\\":\\\"5\\\",\\\"gpu\\\":\\\"1\\\"}\"}]");
    }

    // ---- builders ----

    private static Named<Case> named(String name, ObservedCluster cluster, ScaleDecision decision, Consumer<ActuationPlan> check) {
        return Named.of(name, new Case(cluster, decision, check));
    }

    private static ObservedCluster.ObservedGroup group(String name, int replicas) {
        return new ObservedCluster.ObservedGroup(name, replicas, 0, 10, 1, List.of(), true);
    }

    private static ObservedCluster.ObservedGroup hosts(ObservedCluster.ObservedGroup group, int hosts) {
        return new ObservedCluster.ObservedGroup(group.name(), group.replicas(), group.min(), group.max(), hosts, group.workersToDelete(), true);
    }

    private static ObservedCluster.ObservedGroup workersToDelete(ObservedCluster.ObservedGroup group, String... names) {
        return new ObservedCluster.ObservedGroup(group.name(), group.replicas(), group.min(), group.max(), group.hosts(), List.of(names), true);
    }

    /** Pods of a group, Running; a name ending in {@code !} is terminating. */
    private static Map<String, ObservedCluster.ObservedPod> pods(String group, String... names) {
        Map<String, ObservedCluster.ObservedPod> pods = new LinkedHashMap<>();
        for (String name : names) {
            boolean terminating = name.endsWith("!");
            String pod = terminating ? name.substring(0, name.length() - 1) : name;
            pods.put(pod, new ObservedCluster.ObservedPod(pod, group, pod, "Running", terminating));
        }
        return pods;
    }

    private static Map<String, ObservedCluster.ObservedPod> replicaPods(String group, Map<String, String> replicaOfPod) {
        Map<String, ObservedCluster.ObservedPod> pods = new LinkedHashMap<>();
        new TreeMap<>(replicaOfPod).forEach((pod, replica) -> pods.put(pod, new ObservedCluster.ObservedPod(pod, group, replica, "Running", false)));
        return pods;
    }

    /** Pod -> live node id pairs. */
    private static Map<String, List<String>> live(String... podAndNode) {
        Map<String, List<String>> nodes = new LinkedHashMap<>();
        for (int i = 0; i < podAndNode.length; i += 2) {
            nodes.put(podAndNode[i], List.of(podAndNode[i + 1]));
        }
        return nodes;
    }

    private static ObservedCluster cluster(ObservedCluster.ObservedGroup group, Map<String, ObservedCluster.ObservedPod> pods,
            Map<String, List<String>> liveNodes) {
        return new ObservedCluster("default", "c", UID, "100", 7L, true, true, false, AppliedMark.NONE, false, List.of(group), pods,
                liveNodes == null ? null : new LiveNodes(liveNodes, Map.of()), null);
    }

    private static ObservedCluster cluster(ObservedCluster.ObservedGroup... groups) {
        return new ObservedCluster("default", "c", UID, "100", 7L, true, true, false, AppliedMark.NONE, false, List.of(groups), Map.of(), new LiveNodes(Map.of(), Map.of()), null);
    }

    private static ObservedCluster withUid(ObservedCluster c, String uid) {
        return new ObservedCluster(c.namespace(), c.name(), uid, c.resourceVersion(), c.generation(), c.annotated(), c.optedIn(),
                c.inTreeAutoscaling(), c.mark(), c.dryRun(), c.groups(), c.pods(), c.liveNodes(), c.otherWrite());
    }

    private static ObservedCluster withMark(ObservedCluster c, AppliedMark mark) {
        return new ObservedCluster(c.namespace(), c.name(), c.uid(), c.resourceVersion(), c.generation(), c.annotated(), c.optedIn(),
                c.inTreeAutoscaling(), mark, c.dryRun(), c.groups(), c.pods(), c.liveNodes(), c.otherWrite());
    }

    private static ObservedCluster inTreeAutoscaling(ObservedCluster c) {
        return new ObservedCluster(c.namespace(), c.name(), c.uid(), c.resourceVersion(), c.generation(), c.annotated(), c.optedIn(),
                true, c.mark(), c.dryRun(), c.groups(), c.pods(), c.liveNodes(), c.otherWrite());
    }

    private static ObservedCluster optedOut(ObservedCluster c) {
        return new ObservedCluster(c.namespace(), c.name(), c.uid(), c.resourceVersion(), c.generation(), c.annotated(), false,
                c.inTreeAutoscaling(), c.mark(), c.dryRun(), c.groups(), c.pods(), c.liveNodes(), c.otherWrite());
    }

    /** This actuator's last write, {@code decisionId}, at {@code at}, which left {@code after} at generation 4. */
    private static LastWrite written(String decisionId, Instant at, ObservedCluster after) {
        return new LastWrite(decisionId, at, after, 4L, Map.of("rayscale.dev/autoscaling", "enabled"));
    }

    private static ObservedCluster dryRun(ObservedCluster c) {
        return new ObservedCluster(c.namespace(), c.name(), c.uid(), c.resourceVersion(), c.generation(), c.annotated(), c.optedIn(),
                c.inTreeAutoscaling(), c.mark(), true, c.groups(), c.pods(), c.liveNodes(), c.otherWrite());
    }

    private static GroupTarget target(String group, int from, int to, PodDeletion... deletions) {
        return new GroupTarget(group, 0, from, to, List.of(), List.of(deletions), List.of());
    }

    private static PodDeletion idle(String pod, String node) {
        return new PodDeletion(pod, node, DeletionCause.IDLE, 120_000L);
    }

    static ScaleDecision decision(GroupTarget... groups) {
        return decision(NOW.plusSeconds(60), groups);
    }

    private static ScaleDecision decision(Instant expiresAt, GroupTarget... groups) {
        List<GroupTarget> indexed = new ArrayList<>();
        for (int i = 0; i < groups.length; i++) {
            GroupTarget g = groups[i];
            indexed.add(new GroupTarget(g.name(), i, g.currentReplicas(), g.targetReplicas(), g.currentWorkersToDelete(), g.toDelete(), g.notes()));
        }
        return new ScaleDecision(ScaleDecision.SCHEMA_VERSION, "d-10", new ClusterRef("default", "c", UID), "snap-10", 10, "100",
                expiresAt.minusSeconds(90), expiresAt, indexed, List.of(), List.of(), List.of(), null, List.of(), List.of(),
                new PlannerInfo("test", "sha256:x"));
    }
}
