package dev.rayscale.planner.core;

import static dev.rayscale.planner.core.Snapshots.group;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import dev.rayscale.events.DecisionMode;
import dev.rayscale.events.DeletionCause;
import dev.rayscale.events.GroupTarget;
import dev.rayscale.events.InfeasibleReason;
import dev.rayscale.events.LabelConstraint;
import dev.rayscale.events.LabelOperator;
import dev.rayscale.events.LabelSelector;
import dev.rayscale.events.NodeStatus;
import dev.rayscale.events.Packing;
import dev.rayscale.events.PendingLaunch;
import dev.rayscale.events.PendingPod;
import dev.rayscale.events.PlacementStrategy;
import dev.rayscale.events.PodDeletion;
import dev.rayscale.events.RayNode;
import dev.rayscale.events.Reason;
import dev.rayscale.events.ReasonCode;
import dev.rayscale.events.Resources;
import dev.rayscale.events.ScaleDecision;
import dev.rayscale.events.ScalingPolicy;
import dev.rayscale.events.UpscalingMode;
import dev.rayscale.events.WorkerGroup;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

class PlannerTest {

    private static final Resources ONE_CPU = Resources.of("CPU", "1", "memory", "1073741824");
    private static final Resources FOUR_CPU = Resources.of("CPU", "4");

    private final Planner planner = new Planner(PlannerSettings.defaults("test"));

    private ScaleDecision plan(Snapshots snapshot) {
        return planner.plan(snapshot.build());
    }

    private static GroupTarget target(ScaleDecision decision, String group) {
        return decision.groups().stream().filter(g -> g.name().equals(group)).findFirst().orElseThrow();
    }

    private static List<String> deleted(ScaleDecision decision, String group) {
        return target(decision, group).toDelete().stream().map(PodDeletion::podName).toList();
    }

    @Nested
    class Upscaling {

        @Test
        void walkthroughAsksForFifteenWorkersAtOnceInDefaultMode() {
            ScaleDecision decision = plan(Snapshots.walkthrough().head("CPU", "0").tasks(15, "CPU", "1"));

            assertThat(target(decision, "small-group").targetReplicas()).isEqualTo(15);
            assertThat(decision.launches()).containsExactly(new PendingLaunch("small-group", 15, 0));
            assertThat(decision.infeasible()).isEmpty();
            assertThat(decision.reasons()).anyMatch(reason -> reason.startsWith("small-group: 0 -> 15 replicas"));
            assertThat(decision.mode()).isEqualTo(DecisionMode.ACTIVE);
            assertThat(decision.codedReasons()).singleElement().satisfies(reason -> {
                assertThat(reason.code()).isEqualTo(ReasonCode.REPLICAS_CHANGED);
                assertThat(reason.group()).isEqualTo("small-group");
                assertThat(reason.detail()).isEqualTo("0 -> 15 replicas (+15 for pending tasks)");
            });
        }

        @Test
        void conservativeModeKeepsPendingPodsAtMostTheRunningNodes() {
            ScaleDecision fromZero = plan(Snapshots.walkthrough().mode(UpscalingMode.CONSERVATIVE).tasks(15, "CPU", "1"));
            assertThat(target(fromZero, "small-group").targetReplicas()).isEqualTo(1);
            assertThat(fromZero.reasons()).anyMatch(reason -> reason.contains("14 of 15 pending tasks") && reason.contains("upscaling limit"));
            assertThat(fromZero.infeasible()).as("held back is not infeasible").isEmpty();

            ScaleDecision withThreeRunning = plan(Snapshots.cluster().group(group("small-group", 3, 0, 20, "CPU", "1"))
                    .mode(UpscalingMode.CONSERVATIVE)
                    .busy("w1", "small-group", Resources.of("CPU", "1"), Resources.NONE)
                    .busy("w2", "small-group", Resources.of("CPU", "1"), Resources.NONE)
                    .busy("w3", "small-group", Resources.of("CPU", "1"), Resources.NONE)
                    .tasks(15, "CPU", "1"));
            assertThat(target(withThreeRunning, "small-group").targetReplicas()).isEqualTo(6);
        }

        @Test
        void explicitSpeedLimitsPendingPodsPerGroup() {
            ScaleDecision decision = plan(Snapshots.cluster().group(group("g", 2, 0, 50, "CPU", "1")).speed("2.5")
                    .busy("w1", "g", Resources.of("CPU", "1"), Resources.NONE)
                    .busy("w2", "g", Resources.of("CPU", "1"), Resources.NONE)
                    .pendingPod("p1", "g", Duration.ofSeconds(5))
                    .tasks(30, "CPU", "1"));

            // ceil(2.5 x 2 running) = 5 pending at most, 1 already pending: 4 new.
            assertThat(target(decision, "g").targetReplicas()).isEqualTo(2 + 1 + 4);
        }

        @Test
        void clusterCapOnPendingLaunchesHoldsBackTheRest() {
            ScaleDecision decision = plan(Snapshots.walkthrough().maxPendingLaunches(10).tasks(15, "CPU", "1"));

            assertThat(target(decision, "small-group").targetReplicas()).isEqualTo(10);
        }

        @Test
        void podsWaitingForANodeAreCountedNotRequestedAgain() {
            ScaleDecision decision = plan(Snapshots.cluster().group(group("small-group", 5, 0, 20, "CPU", "1"))
                    .pendingPod("p1", "small-group", Duration.ofSeconds(50))
                    .pendingPod("p2", "small-group", Duration.ofSeconds(50))
                    .pendingPod("p3", "small-group", Duration.ofSeconds(50))
                    .pendingPod("p4", "small-group", Duration.ofSeconds(50))
                    .pendingPod("p5", "small-group", Duration.ofSeconds(50))
                    .tasks(15, "CPU", "1"));

            assertThat(target(decision, "small-group").targetReplicas()).isEqualTo(15);
            assertThat(target(decision, "small-group").toDelete()).isEmpty();
            assertThat(decision.launches()).containsExactly(new PendingLaunch("small-group", 10, 5));
            assertThat(decision.stuckPods()).isEmpty();
        }

        @Test
        void replicasAskedForButNotCreatedAreCountedToo() {
            ScaleDecision decision = plan(Snapshots.cluster().group(group("small-group", 15, 0, 20, "CPU", "1"))
                    .tasks(15, "CPU", "1"));

            assertThat(decision.changesAnything()).isFalse();
            assertThat(decision.launches()).containsExactly(new PendingLaunch("small-group", 0, 15));
        }

        @Test
        void neverChoosesAGpuGroupForCpuWorkWhileACpuGroupFits() {
            ScaleDecision decision = plan(Snapshots.cluster()
                    .group(group("gpu", 0, 0, 10, "CPU", "8", "GPU", "1"))
                    .group(group("cpu", 0, 0, 10, "CPU", "4"))
                    .tasks(8, "CPU", "1"));

            assertThat(target(decision, "cpu").targetReplicas()).isEqualTo(2);
            assertThat(target(decision, "gpu").targetReplicas()).isZero();
        }

        @Test
        void minReplicasComeFirstAndHoldDemand() {
            ScaleDecision decision = plan(Snapshots.cluster().group(group("g", 0, 3, 20, "CPU", "1")).tasks(10, "CPU", "1"));

            assertThat(target(decision, "g").targetReplicas()).isEqualTo(10);
            assertThat(decision.reasons()).anyMatch(reason -> reason.contains("minReplicas 3") && reason.contains("+7 for pending tasks"));
        }

        @Test
        void aCapReachedIsReportedWithItsReason() {
            ScaleDecision decision = plan(Snapshots.walkthrough().maxWorkers(8).tasks(15, "CPU", "1").tasks(2, "CPU", "64"));

            assertThat(target(decision, "small-group").targetReplicas()).isEqualTo(8);
            assertThat(decision.infeasible()).extracting(i -> i.count() + " " + i.reason())
                    .containsExactlyInAnyOrder("7 MAX_WORKERS", "2 NO_GROUP_FITS");
        }
    }

    /** Ray v2 puts demand on the best-scoring existing node, not the first listed (Ray's scheduler.py, _sched_best_node). */
    @Nested
    class BestScoringExistingNodes {

        @Test
        void theNodeThatEndsFullestTakesFirstSoNothingNewIsOpened() {
            // Listed first, the 6-CPU node would take the 4-CPU task and leave room for neither 3-CPU task (first fit opens a node).
            // Ray scores the 4-CPU node higher for that task (it ends full), and the two 3-CPU tasks then fill the 6-CPU node.
            ScaleDecision decision = plan(Snapshots.cluster()
                    .group(group("cpu6", 1, 0, 10, "CPU", "6"))
                    .group(group("cpu4", 1, 0, 10, "CPU", "4"))
                    .idle("six", "cpu6", Resources.of("CPU", "6"), Duration.ofSeconds(10))
                    .idle("four", "cpu4", Resources.of("CPU", "4"), Duration.ofSeconds(10))
                    .tasks(1, "CPU", "4").tasks(2, "CPU", "3"));

            assertThat(decision.launches()).isEmpty();
            assertThat(decision.infeasible()).isEmpty();
            assertThat(target(decision, "cpu6").targetReplicas()).isEqualTo(1);
            assertThat(target(decision, "cpu4").targetReplicas()).isEqualTo(1);
        }

        @Test
        void cpuWorkLeavesTheGpuNodeFreeSoTheGpuNodeIsTheOneGivenBack() {
            ScaleDecision decision = plan(Snapshots.cluster()
                    .group(group("gpu", 1, 0, 10, "CPU", "8", "GPU", "1"))
                    .group(group("cpu", 1, 0, 10, "CPU", "8"))
                    .idle("gpu-node", "gpu", Resources.of("CPU", "8", "GPU", "1"), Duration.ofHours(1))
                    .idle("cpu-node", "cpu", Resources.of("CPU", "8"), Duration.ofHours(1))
                    .tasks(8, "CPU", "1"));

            assertThat(deleted(decision, "gpu")).containsExactly("gpu-node");
            assertThat(deleted(decision, "cpu")).isEmpty();
            assertThat(decision.launches()).isEmpty();
        }
    }

    /** Beyond Ray: the nodes Ray's greedy packing opens, made cheaper where that places the same demand. */
    @Nested
    class CheaperThanRay {

        private final WorkerGroup pricey = costing("pricey", "20", Map.of(), "CPU", "8");
        private final WorkerGroup cheap = costing("cheap", "4", Map.of(), "CPU", "4");

        @Test
        void replacesANodeRaysScorePrefersByCheaperOnesThatHoldItsTasks() {
            Snapshots snapshot = Snapshots.cluster().group(pricey).group(cheap).tasks(8, "CPU", "1");

            ScaleDecision ray = plan(snapshot);
            assertThat(target(ray, "pricey").targetReplicas()).as("Ray's score ranks the node the tasks fill best").isEqualTo(1);

            ScaleDecision cheaper = plan(snapshot.policy(ScalingPolicy.defaults().withPacking(Packing.ECONOMICAL)));
            assertThat(target(cheaper, "pricey").targetReplicas()).isZero();
            assertThat(target(cheaper, "cheap").targetReplicas()).isEqualTo(2);
            assertThat(cheaper.infeasible()).isEmpty();
            assertThat(cheaper.reasons()).anyMatch(reason -> reason.equals("economical packing: the new nodes cost 20 as Ray packs them, 8; "
                    + "replaced by cheaper nodes: 1 pricey by 2 cheap"));
            assertThat(cheaper.planner().policyHash()).isNotEqualTo(ray.planner().policyHash());
        }

        @Test
        void keepsWhatLabelSelectorsOrLimitsRequire() {
            WorkerGroup labelled = costing("pricey", "20", Map.of("zone", "a"), "CPU", "8");
            Snapshots snapshot = Snapshots.cluster().group(labelled).group(cheap)
                    .policy(ScalingPolicy.defaults().withPacking(Packing.ECONOMICAL))
                    .tasks(8, List.of(new LabelSelector(List.of(new LabelConstraint("zone", LabelOperator.IN, List.of("a"))))), "CPU", "1");
            assertThat(target(plan(snapshot), "pricey").targetReplicas()).as("only the labelled group may hold the tasks").isEqualTo(1);

            WorkerGroup scarce = new WorkerGroup("cheap", 0, 0, 0, 1, 1, Resources.of("CPU", "4"), Map.of(), List.of(), null, false,
                    List.of(), null, new BigDecimal("4"));
            ScaleDecision capped = plan(Snapshots.cluster().group(pricey).group(scarce)
                    .policy(ScalingPolicy.defaults().withPacking(Packing.ECONOMICAL)).tasks(8, "CPU", "1"));
            assertThat(target(capped, "pricey").targetReplicas()).as("two cheap nodes would exceed maxReplicas 1").isEqualTo(1);
        }

        @Test
        void withoutACostAnnotationGpusWeighMoreThanCpus() {
            WorkerGroup gpu = new WorkerGroup("gpu", 0, 0, 0, 10, 1, Resources.of("CPU", "16", "GPU", "1"), Map.of(), List.of(), null, false);
            WorkerGroup cpu = new WorkerGroup("cpu", 0, 0, 0, 10, 1, Resources.of("CPU", "8", "memory", "34359738368"), Map.of(), List.of(),
                    null, false);

            assertThat(NodeCost.of(gpu)).isEqualByComparingTo("41");
            assertThat(NodeCost.of(cpu)).isEqualByComparingTo("12");
            assertThat(NodeCost.of(pricey)).isEqualByComparingTo("20");
        }

        private static WorkerGroup costing(String name, String cost, Map<String, String> labels, String... resources) {
            return new WorkerGroup(name, 0, 0, 0, 10, 1, Resources.of(resources), labels, List.of(), null, false, List.of(), null,
                    new BigDecimal(cost));
        }
    }

    @Nested
    class PlacementGroups {

        @Test
        void strictSpreadNeedsDistinctNodes() {
            ScaleDecision decision = plan(Snapshots.cluster().group(group("cpu4", 0, 0, 10, "CPU", "4"))
                    .gang("pg", PlacementStrategy.STRICT_SPREAD, ONE(), ONE(), ONE(), ONE()));

            assertThat(target(decision, "cpu4").targetReplicas()).isEqualTo(4);
        }

        @Test
        void strictPackMergesBundlesOntoOneNodeOrNothing() {
            ScaleDecision fits = plan(Snapshots.cluster().group(group("cpu8", 0, 0, 10, "CPU", "8"))
                    .gang("pg", PlacementStrategy.STRICT_PACK, cpus("3"), cpus("3")));
            assertThat(target(fits, "cpu8").targetReplicas()).isEqualTo(1);

            ScaleDecision tooBig = plan(Snapshots.cluster().group(group("cpu4", 0, 0, 10, "CPU", "4"))
                    .gang("pg", PlacementStrategy.STRICT_PACK, cpus("3"), cpus("3")));
            assertThat(tooBig.changesAnything()).isFalse();
            assertThat(tooBig.infeasible()).singleElement().satisfies(i -> {
                assertThat(i.gangId()).isEqualTo("pg");
                assertThat(i.reason()).isEqualTo(InfeasibleReason.NO_GROUP_FITS);
            });
        }

        @Test
        void spreadUsesDistinctExistingNodesButLaunchesNoExtraNodesForIt() {
            ScaleDecision onExisting = plan(Snapshots.cluster().group(group("cpu4", 2, 0, 10, "CPU", "4"))
                    .idle("a", "cpu4", FOUR_CPU, Duration.ZERO).idle("b", "cpu4", FOUR_CPU, Duration.ZERO)
                    .gang("pg", PlacementStrategy.SPREAD, ONE(), ONE()));
            assertThat(onExisting.changesAnything()).isFalse();

            ScaleDecision fromNothing = plan(Snapshots.cluster().group(group("cpu4", 0, 0, 10, "CPU", "4"))
                    .gang("pg", PlacementStrategy.SPREAD, ONE(), ONE(), ONE()));
            assertThat(target(fromNothing, "cpu4").targetReplicas()).isEqualTo(1);
        }

        @Test
        void aGangThatDoesNotFitWholeTakesNothing() {
            ScaleDecision decision = plan(Snapshots.cluster().group(group("cpu4", 0, 0, 2, "CPU", "4"))
                    .gang("pg", PlacementStrategy.STRICT_SPREAD, ONE(), ONE(), ONE())
                    .tasks(1, "CPU", "1"));

            assertThat(target(decision, "cpu4").targetReplicas()).as("only the task's node").isEqualTo(1);
            assertThat(decision.infeasible()).singleElement().satisfies(i -> assertThat(i.reason()).isEqualTo(InfeasibleReason.MAX_REPLICAS));
        }

        private static Resources ONE() {
            return Resources.of("CPU", "1");
        }

        private static Resources cpus(String amount) {
            return Resources.of("CPU", amount);
        }
    }

    @Nested
    class RequestResources {

        @Test
        void countsAgainstTotalCapacityEvenWhenBusy() {
            ScaleDecision decision = plan(Snapshots.cluster().group(group("cpu4", 2, 0, 10, "CPU", "4"))
                    .busy("a", "cpu4", FOUR_CPU, Resources.NONE).busy("b", "cpu4", FOUR_CPU, Resources.NONE)
                    .constraint(4, "CPU", "4"));

            assertThat(target(decision, "cpu4").targetReplicas()).isEqualTo(4);
        }

        @Test
        void isAllOrNothing() {
            ScaleDecision decision = plan(Snapshots.cluster().group(group("cpu4", 0, 0, 3, "CPU", "4")).constraint(4, "CPU", "4"));

            assertThat(decision.changesAnything()).isFalse();
            assertThat(decision.infeasible()).singleElement().satisfies(i -> assertThat(i.reason()).isEqualTo(InfeasibleReason.MAX_REPLICAS));
        }

        @Test
        void keepsIdleNodesItCounts() {
            ScaleDecision decision = plan(Snapshots.cluster().group(group("cpu4", 2, 0, 10, "CPU", "4"))
                    .idle("a", "cpu4", FOUR_CPU, Duration.ofMinutes(10)).idle("b", "cpu4", FOUR_CPU, Duration.ofMinutes(10))
                    .constraint(1, "CPU", "4"));

            assertThat(deleted(decision, "cpu4")).hasSize(1);
        }
    }

    @Nested
    class ScaleDown {

        @Test
        void removesNodesIdleLongerThanTheTimeoutLongestFirstDownToMin() {
            ScaleDecision decision = plan(Snapshots.cluster().group(group("cpu4", 4, 1, 10, "CPU", "4"))
                    .idle("short", "cpu4", FOUR_CPU, Duration.ofSeconds(30))
                    .idle("long", "cpu4", FOUR_CPU, Duration.ofSeconds(600))
                    .idle("longer", "cpu4", FOUR_CPU, Duration.ofSeconds(900))
                    .idle("longest", "cpu4", FOUR_CPU, Duration.ofSeconds(1200)));

            assertThat(deleted(decision, "cpu4")).containsExactly("longest", "longer", "long");
            assertThat(target(decision, "cpu4").targetReplicas()).isEqualTo(1);
            assertThat(target(decision, "cpu4").toDelete()).allSatisfy(d -> assertThat(d.cause()).isEqualTo(DeletionCause.IDLE));

            ScaleDecision atMin = plan(Snapshots.cluster().group(group("cpu4", 2, 2, 10, "CPU", "4"))
                    .idle("a", "cpu4", FOUR_CPU, Duration.ofHours(1)).idle("b", "cpu4", FOUR_CPU, Duration.ofHours(1)));
            assertThat(atMin.changesAnything()).isFalse();
        }

        @Test
        void neverRemovesABusyNodeOrOneThatPendingDemandWillUse() {
            ScaleDecision decision = plan(Snapshots.cluster().group(group("cpu4", 2, 0, 10, "CPU", "4"))
                    .busy("busy", "cpu4", FOUR_CPU, Resources.of("CPU", "3"))
                    .idle("needed", "cpu4", FOUR_CPU, Duration.ofHours(1))
                    .tasks(6, "CPU", "1"));

            assertThat(target(decision, "cpu4").toDelete()).isEmpty();
            assertThat(target(decision, "cpu4").targetReplicas()).isEqualTo(2);
        }

        @Test
        void perGroupIdleTimeoutOverridesTheClusters() {
            WorkerGroup patient = new WorkerGroup("cpu4", 0, 1, 0, 10, 1, FOUR_CPU, Map.of(), List.of(), 3600L, false);
            ScaleDecision decision = plan(Snapshots.cluster().group(patient).idle("a", "cpu4", FOUR_CPU, Duration.ofMinutes(10)));

            assertThat(decision.changesAnything()).isFalse();
        }

        @Test
        void noNewDeletionsWhileTheOperatorIsStillDeleting() {
            WorkerGroup deleting = new WorkerGroup("cpu4", 0, 2, 0, 10, 1, FOUR_CPU, Map.of(), List.of("going"), null, false);
            ScaleDecision decision = plan(Snapshots.cluster().group(deleting)
                    .idle("going", "cpu4", FOUR_CPU, Duration.ofHours(1))
                    .idle("a", "cpu4", FOUR_CPU, Duration.ofHours(1))
                    .idle("b", "cpu4", FOUR_CPU, Duration.ofHours(1)));

            assertThat(target(decision, "cpu4").toDelete()).isEmpty();
            assertThat(target(decision, "cpu4").currentWorkersToDelete()).containsExactly("going");
        }

        @Test
        void overMaxShrinksByPendingThenIdleNeverBusy() {
            ScaleDecision decision = plan(Snapshots.cluster().group(group("cpu4", 5, 0, 2, "CPU", "4"))
                    .busy("busy1", "cpu4", FOUR_CPU, Resources.NONE)
                    .busy("busy2", "cpu4", FOUR_CPU, Resources.NONE)
                    .busy("busy3", "cpu4", FOUR_CPU, Resources.NONE)
                    .idle("idle", "cpu4", FOUR_CPU, Duration.ofSeconds(5))
                    .pendingPod("waiting", "cpu4", Duration.ofSeconds(5)));

            GroupTarget cpu4 = target(decision, "cpu4");
            assertThat(cpu4.toDelete()).extracting(PodDeletion::podName).containsExactly("waiting", "idle");
            assertThat(cpu4.toDelete()).allSatisfy(d -> assertThat(d.cause()).isEqualTo(DeletionCause.MAX_REPLICAS));
            assertThat(cpu4.targetReplicas()).isEqualTo(2);
            assertThat(cpu4.notes()).singleElement().asString().contains("1 replica(s) above maxReplicas 2 are busy");
        }

        @Test
        void clusterCapShrinksNotYetRunningFirst() {
            ScaleDecision decision = plan(Snapshots.cluster()
                    .group(group("type_1", 2, 0, 2, "CPU", "1")).group(group("type_2", 2, 0, 2, "CPU", "1")).maxWorkers(3)
                    .pendingPod("0", "type_1", Duration.ZERO)
                    .idle("1", "type_1", Resources.of("CPU", "1"), Duration.ofMillis(10))
                    .busy("2", "type_2", Resources.of("CPU", "1"), Resources.of("CPU", "0.5"))
                    .busy("3", "type_2", Resources.of("CPU", "1"), Resources.NONE));

            assertThat(deleted(decision, "type_1")).containsExactly("0");
            assertThat(target(decision, "type_1").toDelete()).allSatisfy(d -> assertThat(d.cause()).isEqualTo(DeletionCause.MAX_WORKERS));
        }

        @Test
        void multiHostReplicaGoesWholeAndOnlyWhenEveryHostIsIdle() {
            WorkerGroup tpu = new WorkerGroup("tpu", 0, 2, 0, 4, 2, Resources.of("TPU", "4"), Map.of(), List.of(), null, false);
            Resources slice = Resources.of("TPU", "4");
            ScaleDecision decision = plan(Snapshots.cluster().group(tpu)
                    .node(host("r0-h0", "r0", slice, slice, 600_000))
                    .node(host("r0-h1", "r0", slice, slice, 700_000))
                    .node(host("r1-h0", "r1", slice, slice, 900_000))
                    .node(host("r1-h1", "r1", slice, Resources.NONE, 0)));

            assertThat(deleted(decision, "tpu")).containsExactlyInAnyOrder("r0-h0", "r0-h1");
            assertThat(target(decision, "tpu").targetReplicas()).isEqualTo(1);
        }

        @Test
        void multiHostGroupsGrowInWholeReplicas() {
            WorkerGroup tpu = new WorkerGroup("tpu", 0, 0, 0, 4, 4, Resources.of("TPU", "4"), Map.of(), List.of(), null, false);
            ScaleDecision decision = plan(Snapshots.cluster().group(tpu).tasks(5, "TPU", "4"));

            assertThat(target(decision, "tpu").targetReplicas()).isEqualTo(2);
            assertThat(decision.launches()).containsExactly(new PendingLaunch("tpu", 8, 0));
        }

        private static RayNode host(String pod, String replica, Resources total, Resources available, long idleMs) {
            return new RayNode("id-" + pod, pod, replica, "tpu", idleMs > 0 ? NodeStatus.IDLE : NodeStatus.RUNNING, total, available,
                    idleMs, Map.of(), null, List.of());
        }
    }

    @Nested
    class PendingPods {

        @Test
        void aPodWaitingLongerThanThePatienceIsReportedNotDeleted() {
            ScaleDecision decision = plan(Snapshots.walkthrough().group(group("other", 0, 0, 1, "CPU", "1"))
                    .pendingPod("young", "small-group", Duration.ofMinutes(14))
                    .pendingPod("old", "small-group", Duration.ofMinutes(16)));

            assertThat(decision.stuckPods()).singleElement().satisfies(stuck -> {
                assertThat(stuck.podName()).isEqualTo("old");
                assertThat(stuck.waitingSeconds()).isEqualTo(960);
                assertThat(stuck.reason()).isEqualTo("Unschedulable");
            });
            assertThat(target(decision, "small-group").toDelete()).isEmpty();
        }

        @Test
        void aStuckPodIsReplacedOnlyIfThePolicySaysSo() {
            ScaleDecision decision = plan(Snapshots.walkthrough().stuckPodPolicy(300, true)
                    .pendingPod("young", "small-group", Duration.ofMinutes(4))
                    .pendingPod("old", "small-group", Duration.ofMinutes(6)));

            GroupTarget small = target(decision, "small-group");
            assertThat(small.toDelete()).singleElement().satisfies(d -> {
                assertThat(d.podName()).isEqualTo("old");
                assertThat(d.cause()).isEqualTo(DeletionCause.STUCK_PENDING);
            });
            assertThat(small.targetReplicas()).as("replaced, not removed").isEqualTo(2);
        }

        @Test
        void ageIsMeasuredOnTheSnapshotsClock() {
            PendingPod pod = new PendingPod("p", null, "small-group", "Pending", null, Snapshots.NOW.minus(Duration.ofMinutes(20)));

            assertThat(plan(Snapshots.walkthrough().pendingPod(pod)).stuckPods()).hasSize(1);
        }
    }

    @Nested
    class UnknownIsNotZero {

        @Test
        void anUnreadableGcsHoldsTheSizeButStillHonoursMinReplicas() {
            ScaleDecision decision = plan(Snapshots.cluster()
                    .group(group("a", 5, 0, 10, "CPU", "1")).group(group("b", 0, 2, 10, "CPU", "1"))
                    .gcsUnavailable("UNAVAILABLE", "connection refused"));

            assertThat(target(decision, "a").targetReplicas()).isEqualTo(5);
            assertThat(target(decision, "a").toDelete()).isEmpty();
            assertThat(target(decision, "b").targetReplicas()).isEqualTo(2);
            assertThat(decision.reasons().get(0)).isEqualTo("holding the current size: the Ray GCS could not be read (UNAVAILABLE: connection refused)");
            assertThat(decision.mode()).isEqualTo(DecisionMode.HOLD);
            assertThat(decision.codedReasons()).extracting(Reason::code, Reason::group)
                    .containsExactly(tuple(ReasonCode.GCS_UNREADABLE, null), tuple(ReasonCode.REPLICAS_CHANGED, "b"));
        }

        @Test
        void aStaleKubernetesViewHoldsTheSize() {
            ScaleDecision decision = plan(Snapshots.cluster().group(group("cpu4", 2, 0, 10, "CPU", "4"))
                    .idle("a", "cpu4", FOUR_CPU, Duration.ofHours(1)).idle("b", "cpu4", FOUR_CPU, Duration.ofHours(1))
                    .tasks(100, "CPU", "1").kubernetesStale("watch disconnected"));

            assertThat(decision.changesAnything()).isFalse();
            assertThat(decision.reasons().get(0)).contains("stale", "watch disconnected");
            assertThat(decision.mode()).isEqualTo(DecisionMode.HOLD);
            assertThat(decision.codedReasons().get(0).code()).isEqualTo(ReasonCode.KUBERNETES_UNRELIABLE);
        }

        @Test
        void aSuspendedClusterOrGroupIsLeftAlone() {
            ScaleDecision cluster = plan(Snapshots.walkthrough().suspended().tasks(15, "CPU", "1"));
            assertThat(cluster.changesAnything()).isFalse();
            assertThat(cluster.mode()).isEqualTo(DecisionMode.FROZEN);
            assertThat(cluster.codedReasons()).extracting(Reason::code).containsExactly(ReasonCode.SUSPENDED);

            WorkerGroup paused = new WorkerGroup("paused", 0, 3, 0, 10, 1, FOUR_CPU, Map.of(), List.of(), null, true);
            ScaleDecision group = plan(Snapshots.cluster().group(paused).idle("a", "paused", FOUR_CPU, Duration.ofHours(1))
                    .tasks(40, "CPU", "4"));
            assertThat(group.changesAnything()).isFalse();
            assertThat(group.infeasible()).singleElement().satisfies(i -> assertThat(i.reason()).isEqualTo(InfeasibleReason.SUSPENDED));
        }
    }

    @Nested
    class Labels {

        private final WorkerGroup spot = new WorkerGroup("spot", 0, 0, 0, 10, 1, FOUR_CPU, Map.of("market", "spot"), List.of(), null, false);
        private final WorkerGroup onDemand = new WorkerGroup("on-demand", 0, 0, 0, 10, 1, FOUR_CPU, Map.of("market", "on-demand"),
                List.of(), null, false);

        @Test
        void selectorsChooseTheGroup() {
            ScaleDecision decision = plan(Snapshots.cluster().group(spot).group(onDemand)
                    .tasks(4, List.of(selector("market", LabelOperator.IN, "on-demand")), "CPU", "1"));

            assertThat(target(decision, "on-demand").targetReplicas()).isEqualTo(1);
            assertThat(target(decision, "spot").targetReplicas()).isZero();
        }

        @Test
        void fallsBackInOrderAndReportsWhatNothingMatches() {
            ScaleDecision decision = plan(Snapshots.cluster().group(spot)
                    .tasks(4, List.of(selector("market", LabelOperator.IN, "reserved"), selector("market", LabelOperator.NOT_IN, "on-demand")),
                            "CPU", "1")
                    .tasks(1, List.of(selector("zone", LabelOperator.IN, "mars")), "CPU", "1"));

            assertThat(target(decision, "spot").targetReplicas()).isEqualTo(1);
            assertThat(decision.infeasible()).singleElement().satisfies(i -> assertThat(i.reason()).isEqualTo(InfeasibleReason.LABELS_UNMATCHED));
        }

        private static LabelSelector selector(String key, LabelOperator operator, String value) {
            return new LabelSelector(List.of(new LabelConstraint(key, operator, List.of(value))));
        }
    }

    @Nested
    class Determinism {

        @Test
        void theSameSnapshotGivesTheSameDecisionIdIncluded() {
            Snapshots snapshot = Snapshots.walkthrough().tasks(15, "CPU", "1").tasks(3, "CPU", "0.5");

            assertThat(plan(snapshot)).isEqualTo(plan(snapshot));
        }

        @Test
        void aDifferentPolicyGivesADifferentHashAndId() {
            ScaleDecision fast = plan(Snapshots.walkthrough().tasks(15, "CPU", "1"));
            ScaleDecision slow = plan(Snapshots.walkthrough().mode(UpscalingMode.CONSERVATIVE).tasks(15, "CPU", "1"));

            assertThat(fast.planner().policyHash()).isNotEqualTo(slow.planner().policyHash());
            assertThat(fast.id()).isNotEqualTo(slow.id());
            assertThat(fast.expiresAt()).isEqualTo(Snapshots.NOW.plus(PlannerSettings.DEFAULT_DECISION_TTL));
        }

        @Test
        void decisionNamesItsSnapshotAndTheResourceVersionItAssumed() {
            ScaleDecision decision = plan(Snapshots.walkthrough().id("snap-42").tasks(1, "CPU", "1"));

            assertThat(decision.snapshotId()).isEqualTo("snap-42");
            assertThat(decision.snapshotSequence()).isEqualTo(7);
            assertThat(decision.resourceVersion()).isEqualTo("100");
            assertThat(decision.decidedAt()).isEqualTo(Snapshots.NOW);
        }
    }

    /** What the real Ray and KubeRay do that a planner must not misread (facts of the shared ray-kuberay-behaviours.md). */
    @Nested
    class FaithfulToRayAndKubeRay {

        private static WorkerGroup with(WorkerGroup group, boolean suspended, List<String> workersToDelete, List<String> terminating,
                String launchFailure) {
            return new WorkerGroup(group.name(), group.index(), group.replicas(), group.minReplicas(), group.maxReplicas(),
                    group.numOfHosts(), group.resources(), group.labels(), workersToDelete, group.idleTimeoutSeconds(), suspended, terminating,
                    launchFailure);
        }

        @Test
        void aSuspendedGroupIsNoCapacityOnItsWay() {
            ScaleDecision decision = plan(Snapshots.cluster()
                    .group(with(group("cpu4", 3, 0, 10, "CPU", "4"), true, List.of(), List.of(), null))
                    .tasks(4, "CPU", "1"));

            assertThat(decision.infeasible()).singleElement().satisfies(infeasible -> {
                assertThat(infeasible.count()).isEqualTo(4);
                assertThat(infeasible.reason()).isEqualTo(InfeasibleReason.SUSPENDED);
            });
            assertThat(decision.launches()).isEmpty();
        }

        @Test
        void aGroupWhosePodsCannotBeCreatedGetsNoDemandAnotherGroupServesItAndTheFailureIsReported() {
            String quota = "pods \"c-gpu-worker-x7k2p\" is forbidden: exceeded quota";
            ScaleDecision decision = plan(Snapshots.cluster()
                    .group(with(group("gpu", 3, 0, 10, "CPU", "4", "GPU", "1"), false, List.of(), List.of(), quota))
                    .group(group("cpu", 0, 0, 10, "CPU", "4"))
                    .tasks(4, "CPU", "4")
                    .tasks(2, "GPU", "1"));

            assertThat(target(decision, "cpu").targetReplicas()).as("the CPU work goes where pods can be made").isEqualTo(4);
            assertThat(target(decision, "gpu").targetReplicas()).isEqualTo(3);
            assertThat(decision.infeasible()).singleElement().satisfies(infeasible -> {
                assertThat(infeasible.count()).isEqualTo(2);
                assertThat(infeasible.reason()).isEqualTo(InfeasibleReason.LAUNCH_FAILED);
            });
            assertThat(decision.launches()).filteredOn(launch -> launch.group().equals("gpu")).singleElement().satisfies(launch -> {
                assertThat(launch.failed()).isEqualTo(3);
                assertThat(launch.failure()).isEqualTo(quota);
            });
        }

        @Test
        void replicasWhosePodsCannotBeCreatedAreGivenBackOnceNoDemandWaitsForThem() {
            WorkerGroup failing = with(group("gpu", 3, 0, 10, "CPU", "4", "GPU", "1"), false, List.of(), List.of(), "exceeded quota");

            ScaleDecision waiting = plan(Snapshots.cluster().group(failing)
                    .busy("g1", "gpu", Resources.of("CPU", "4", "GPU", "1"), Resources.of("CPU", "3")).tasks(2, "GPU", "1"));
            assertThat(target(waiting, "gpu").targetReplicas()).as("kept while demand waits: the operator keeps trying").isEqualTo(3);

            ScaleDecision done = plan(Snapshots.cluster().group(failing)
                    .busy("g1", "gpu", Resources.of("CPU", "4", "GPU", "1"), Resources.of("CPU", "3")));
            assertThat(target(done, "gpu").targetReplicas()).isEqualTo(1);
            assertThat(done.reasons()).anySatisfy(reason -> assertThat(reason).contains("give back 2 replica(s)"));
        }

        @Test
        void aNodeWhosePodIsGoneIsNotCountedSoNoReplicaIsAddedForIt() {
            ScaleDecision decision = plan(Snapshots.cluster().group(group("cpu4", 1, 0, 10, "CPU", "4"))
                    .node(new RayNode("id-old", "old", null, "cpu4", NodeStatus.IDLE, FOUR_CPU, FOUR_CPU, 20_000, Map.of(), null, List.of(),
                            dev.rayscale.events.PodState.GONE))
                    .pendingPod("replacement", "cpu4", Duration.ofSeconds(5)));

            assertThat(decision.changesAnything()).as("the vanished pod's node is no capacity and no replica").isFalse();
        }

        @Test
        void aPodWithTwoLiveNodesCountsOnceAndIsNotRemoved() {
            ScaleDecision decision = plan(Snapshots.cluster().group(group("cpu4", 2, 0, 10, "CPU", "4"))
                    .node(new RayNode("id-old", "restarted", null, "cpu4", NodeStatus.IDLE, FOUR_CPU, FOUR_CPU, 600_000, Map.of(), null,
                            List.of()))
                    .node(new RayNode("id-new", "restarted", null, "cpu4", NodeStatus.IDLE, FOUR_CPU, FOUR_CPU, 900_000, Map.of(), null,
                            List.of()))
                    .busy("other", "cpu4", FOUR_CPU, Resources.NONE));

            assertThat(target(decision, "cpu4").targetReplicas()).as("two pods, not three").isEqualTo(2);
            assertThat(target(decision, "cpu4").toDelete()).as("a pod whose raylet restarted is in flux").isEmpty();
        }

        @Test
        void noNewDeletionsWhileANamedPodIsStillTerminating() {
            ScaleDecision decision = plan(Snapshots.cluster()
                    .group(with(group("cpu4", 2, 0, 10, "CPU", "4"), false, List.of("going"), List.of("going"), null))
                    .idle("a", "cpu4", FOUR_CPU, Duration.ofHours(1))
                    .idle("b", "cpu4", FOUR_CPU, Duration.ofHours(1)));

            assertThat(target(decision, "cpu4").toDelete()).isEmpty();
        }

        @Test
        void replicasNeverDropBelowThePodsLeftUnnamedTerminatingOnesIncluded() {
            ScaleDecision decision = plan(Snapshots.cluster()
                    .group(with(group("cpu4", 3, 0, 10, "CPU", "4"), false, List.of(), List.of("evicted"), null))
                    .idle("a", "cpu4", FOUR_CPU, Duration.ofHours(1))
                    .busy("b", "cpu4", FOUR_CPU, Resources.NONE)
                    .busy("c", "cpu4", FOUR_CPU, Resources.NONE));

            assertThat(deleted(decision, "cpu4")).containsExactly("a");
            assertThat(target(decision, "cpu4").targetReplicas()).as("b, c and the evicted pod still count").isEqualTo(3);
            assertThat(target(decision, "cpu4").notes()).anySatisfy(note -> assertThat(note).contains("pods of its own choosing"));
        }

        @Test
        void aHugeBacklogCostsCountsNotNodes() {
            ScaleDecision decision = plan(Snapshots.cluster().group(group("cpu1", 0, 0, Integer.MAX_VALUE, "CPU", "1"))
                    .tasks(50_000_000, "CPU", "1"));

            assertThat(target(decision, "cpu1").targetReplicas()).as("the cluster's cap on pending launches").isEqualTo(100);
            assertThat(decision.infeasible()).isEmpty();
            assertThat(decision.reasons()).anySatisfy(reason -> assertThat(reason).contains("wait for the upscaling limit"));
        }
    }
}
