package dev.rayscale.planner.core;

import static dev.rayscale.planner.core.Snapshots.group;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import dev.rayscale.events.DecisionMode;
import dev.rayscale.events.DeletionCause;
import dev.rayscale.events.GangDemand;
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
import dev.rayscale.events.PodState;
import dev.rayscale.events.RayNode;
import dev.rayscale.events.Reason;
import dev.rayscale.events.ReasonCode;
import dev.rayscale.events.Resources;
import dev.rayscale.events.ScaleDecision;
import dev.rayscale.events.ScalingPolicy;
import dev.rayscale.events.Support;
import dev.rayscale.events.UpscalingMode;
import dev.rayscale.events.WorkerGroup;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The planner, case by case: each case a named cluster situation and what must hold of the decision on it, grouped by
 * behaviour. What relates two plans (determinism, one policy against another) is a test of its own.
 */
class PlannerTest {

    private static final Resources ONE_CPU = Resources.of("CPU", "1", "memory", "1073741824");
    private static final Resources FOUR_CPU = Resources.of("CPU", "4");
    private static final Planner PLANNER = new Planner(PlannerSettings.defaults("test"));

    /** A named case: the cluster as a snapshot, and what must hold of the planner's decision on it. */
    record Case(Snapshots given, Consumer<ScaleDecision> then) {
    }

    private static Named<Case> when(String name, Snapshots given, Consumer<ScaleDecision> then) {
        return Named.of(name, new Case(given, then));
    }

    private static void check(Case planCase) {
        planCase.then().accept(plan(planCase.given()));
    }

    private static ScaleDecision plan(Snapshots snapshot) {
        return PLANNER.plan(snapshot.build());
    }

    private static GroupTarget target(ScaleDecision decision, String group) {
        return decision.groups().stream().filter(g -> g.name().equals(group)).findFirst().orElseThrow();
    }

    private static List<String> deleted(ScaleDecision decision, String group) {
        return target(decision, group).toDelete().stream().map(PodDeletion::podName).toList();
    }

    @Nested
    class Upscaling {

        static Stream<Named<Case>> cases() {
            return Stream.of(
                    when("the walk-through asks for fifteen workers at once in Default mode",
                            Snapshots.walkthrough().head("CPU", "0").tasks(15, "CPU", "1"),
                            decision -> {
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
                            }),
                    when("an explicit upscaling speed limits the pending pods per group",
                            Snapshots.cluster().group(group("g", 2, 0, 50, "CPU", "1")).speed("2.5")
                                .busy("w1", "g", Resources.of("CPU", "1"), Resources.NONE)
                                .busy("w2", "g", Resources.of("CPU", "1"), Resources.NONE)
                                .pendingPod("p1", "g", Duration.ofSeconds(5))
                                .tasks(30, "CPU", "1"),
                            decision -> {
                                // ceil(2.5 x 2 running) = 5 pending at most, 1 already pending: 4 new.
                                assertThat(target(decision, "g").targetReplicas()).isEqualTo(2 + 1 + 4);
                            }),
                    when("the cluster's cap on pending launches holds back the rest",
                            Snapshots.walkthrough().maxPendingLaunches(10).tasks(15, "CPU", "1"),
                            decision -> assertThat(target(decision, "small-group").targetReplicas()).isEqualTo(10)),
                    when("pods waiting for a node are counted, not asked for again",
                            Snapshots.cluster().group(group("small-group", 5, 0, 20, "CPU", "1"))
                                .pendingPod("p1", "small-group", Duration.ofSeconds(50))
                                .pendingPod("p2", "small-group", Duration.ofSeconds(50))
                                .pendingPod("p3", "small-group", Duration.ofSeconds(50))
                                .pendingPod("p4", "small-group", Duration.ofSeconds(50))
                                .pendingPod("p5", "small-group", Duration.ofSeconds(50))
                                .tasks(15, "CPU", "1"),
                            decision -> {
                                assertThat(target(decision, "small-group").targetReplicas()).isEqualTo(15);
                                assertThat(target(decision, "small-group").toDelete()).isEmpty();
                                assertThat(decision.launches()).containsExactly(new PendingLaunch("small-group", 10, 5));
                                assertThat(decision.stuckPods()).isEmpty();
                            }),
                    when("replicas asked for but not created are counted too",
                            Snapshots.cluster().group(group("small-group", 15, 0, 20, "CPU", "1"))
                                .tasks(15, "CPU", "1"),
                            decision -> {
                                assertThat(decision.changesAnything()).isFalse();
                                assertThat(decision.launches()).containsExactly(new PendingLaunch("small-group", 0, 15));
                            }),
                    when("CPU work never goes to a GPU group while a CPU group fits it",
                            Snapshots.cluster()
                                .group(group("gpu", 0, 0, 10, "CPU", "8", "GPU", "1"))
                                .group(group("cpu", 0, 0, 10, "CPU", "4"))
                                .tasks(8, "CPU", "1"),
                            decision -> {
                                assertThat(target(decision, "cpu").targetReplicas()).isEqualTo(2);
                                assertThat(target(decision, "gpu").targetReplicas()).isZero();
                            }),
                    when("minReplicas come first and hold demand",
                            Snapshots.cluster().group(group("g", 0, 3, 20, "CPU", "1")).tasks(10, "CPU", "1"),
                            decision -> {
                                assertThat(target(decision, "g").targetReplicas()).isEqualTo(10);
                                assertThat(decision.reasons())
                                        .anyMatch(reason -> reason.contains("minReplicas 3") && reason.contains("+7 for pending tasks"));
                            }),
                    when("a cap reached is reported with its reason",
                            Snapshots.walkthrough().maxWorkers(8).tasks(15, "CPU", "1").tasks(2, "CPU", "64"),
                            decision -> {
                                assertThat(target(decision, "small-group").targetReplicas()).isEqualTo(8);
                                assertThat(decision.infeasible()).extracting(i -> i.count() + " " + i.reason())
                                        .containsExactlyInAnyOrder("7 MAX_WORKERS", "2 NO_GROUP_FITS");
                            }),
                    when("conservative mode from no nodes starts one and says what it holds back",
                            Snapshots.walkthrough().mode(UpscalingMode.CONSERVATIVE).tasks(15, "CPU", "1"),
                            decision -> {
                                assertThat(target(decision, "small-group").targetReplicas()).isEqualTo(1);
                                assertThat(decision.reasons()).anyMatch(reason -> reason.contains("14 of 15 pending tasks")
                                        && reason.contains("upscaling limit"));
                                assertThat(decision.infeasible()).as("held back is not infeasible").isEmpty();
                            }),
                    when("conservative mode keeps pending pods at most the running nodes",
                            Snapshots.cluster().group(group("small-group", 3, 0, 20, "CPU", "1"))
                                .mode(UpscalingMode.CONSERVATIVE)
                                .busy("w1", "small-group", Resources.of("CPU", "1"), Resources.NONE)
                                .busy("w2", "small-group", Resources.of("CPU", "1"), Resources.NONE)
                                .busy("w3", "small-group", Resources.of("CPU", "1"), Resources.NONE)
                                .tasks(15, "CPU", "1"),
                            decision -> assertThat(target(decision, "small-group").targetReplicas()).isEqualTo(6)));
        }

        @ParameterizedTest(name = "{0}")
        @MethodSource("cases")
        void plans(Case planCase) {
            check(planCase);
        }

    }

    /** Ray v2 puts demand on the best-scoring existing node, not the first listed (Ray's scheduler.py, _sched_best_node). */
    @Nested
    class BestScoringExistingNodes {

        static Stream<Named<Case>> cases() {
            return Stream.of(
                    // Listed first, the 6-CPU node would take the 4-CPU task and leave room for neither 3-CPU task (first fit opens a node).
                    // Ray scores the 4-CPU node higher for that task (it ends full), and the two 3-CPU tasks then fill the 6-CPU node.
                    when("the node that ends fullest takes first, so nothing new is opened",
                            Snapshots.cluster()
                                .group(group("cpu6", 1, 0, 10, "CPU", "6"))
                                .group(group("cpu4", 1, 0, 10, "CPU", "4"))
                                .idle("six", "cpu6", Resources.of("CPU", "6"), Duration.ofSeconds(10))
                                .idle("four", "cpu4", Resources.of("CPU", "4"), Duration.ofSeconds(10))
                                .tasks(1, "CPU", "4").tasks(2, "CPU", "3"),
                            decision -> {
                                assertThat(decision.launches()).isEmpty();
                                assertThat(decision.infeasible()).isEmpty();
                                assertThat(target(decision, "cpu6").targetReplicas()).isEqualTo(1);
                                assertThat(target(decision, "cpu4").targetReplicas()).isEqualTo(1);
                            }),
                    when("CPU work leaves the GPU node free, so the GPU node is the one given back",
                            Snapshots.cluster()
                                .group(group("gpu", 1, 0, 10, "CPU", "8", "GPU", "1"))
                                .group(group("cpu", 1, 0, 10, "CPU", "8"))
                                .idle("gpu-node", "gpu", Resources.of("CPU", "8", "GPU", "1"), Duration.ofHours(1))
                                .idle("cpu-node", "cpu", Resources.of("CPU", "8"), Duration.ofHours(1))
                                .tasks(8, "CPU", "1"),
                            decision -> {
                                assertThat(deleted(decision, "gpu")).containsExactly("gpu-node");
                                assertThat(deleted(decision, "cpu")).isEmpty();
                                assertThat(decision.launches()).isEmpty();
                            }));
        }

        @ParameterizedTest(name = "{0}")
        @MethodSource("cases")
        void plans(Case planCase) {
            check(planCase);
        }

    }

    /** Beyond Ray: the nodes Ray's greedy packing opens, made cheaper where that places the same demand. */
    @Nested
    class CheaperThanRay {

        private static final WorkerGroup PRICEY = costing("pricey", "20", Map.of(), "CPU", "8");
        private static final WorkerGroup CHEAP = costing("cheap", "4", Map.of(), "CPU", "4");

        static Stream<Named<Case>> cases() {
            return Stream.of(
                    when("economical packing keeps what label selectors require",
                            Snapshots.cluster().group(costing("pricey", "20", Map.of("zone", "a"), "CPU", "8")).group(CHEAP)
                                .policy(ScalingPolicy.defaults().withPacking(Packing.ECONOMICAL))
                                .tasks(8, List.of(new LabelSelector(List.of(new LabelConstraint("zone", LabelOperator.IN, List.of("a"))))),
                                        "CPU", "1"),
                            decision -> assertThat(target(decision, "pricey").targetReplicas())
                                    .as("only the labelled group may hold the tasks").isEqualTo(1)),
                    when("economical packing keeps within maxReplicas",
                            Snapshots.cluster().group(PRICEY)
                                .group(new WorkerGroup("cheap", 0, 0, 0, 1, 1, Resources.of("CPU", "4"), Map.of(), List.of(), null, false,
                                        List.of(), null, new BigDecimal("4")))
                                .policy(ScalingPolicy.defaults().withPacking(Packing.ECONOMICAL)).tasks(8, "CPU", "1"),
                            decision -> assertThat(target(decision, "pricey").targetReplicas())
                                    .as("two cheap nodes would exceed maxReplicas 1").isEqualTo(1)));
        }

        @ParameterizedTest(name = "{0}")
        @MethodSource("cases")
        void plans(Case planCase) {
            check(planCase);
        }


        @Test
        void replacesANodeRaysScorePrefersByCheaperOnesThatHoldItsTasks() {
            Snapshots snapshot = Snapshots.cluster().group(PRICEY).group(CHEAP).tasks(8, "CPU", "1");

            ScaleDecision ray = plan(snapshot);
            assertThat(target(ray, "pricey").targetReplicas()).as("Ray's score ranks the node the tasks fill best").isEqualTo(1);

            ScaleDecision cheaper = plan(snapshot.policy(ScalingPolicy.defaults().withPacking(Packing.ECONOMICAL)));
            assertThat(target(cheaper, "pricey").targetReplicas()).isZero();
            assertThat(target(cheaper, "cheap").targetReplicas()).isEqualTo(2);
            assertThat(cheaper.infeasible()).isEmpty();
            assertThat(cheaper.reasons())
                    .anyMatch(reason -> reason.equals("economical packing: the new nodes cost 20 as Ray packs them, 8; "
                    + "replaced by cheaper nodes: 1 pricey by 2 cheap"));
            assertThat(cheaper.planner().policyHash()).isNotEqualTo(ray.planner().policyHash());
        }

        @Test
        void withoutACostAnnotationGpusWeighMoreThanCpus() {
            WorkerGroup gpu = new WorkerGroup("gpu", 0, 0, 0, 10, 1, Resources.of("CPU", "16", "GPU", "1"), Map.of(), List.of(), null, false);
            WorkerGroup cpu = new WorkerGroup("cpu", 0, 0, 0, 10, 1, Resources.of("CPU", "8", "memory", "34359738368"), Map.of(), List.of(),
                    null, false);

            assertThat(NodeCost.of(gpu)).isEqualByComparingTo("41");
            assertThat(NodeCost.of(cpu)).isEqualByComparingTo("12");
            assertThat(NodeCost.of(PRICEY)).isEqualByComparingTo("20");
        }

        private static WorkerGroup costing(String name, String cost, Map<String, String> labels, String... resources) {
            return new WorkerGroup(name, 0, 0, 0, 10, 1, Resources.of(resources), labels, List.of(), null, false, List.of(), null,
                    new BigDecimal(cost));
        }
    }

    @Nested
    class PlacementGroups {

        static Stream<Named<Case>> cases() {
            return Stream.of(
                    when("strict spread needs distinct nodes",
                            Snapshots.cluster().group(group("cpu4", 0, 0, 10, "CPU", "4"))
                                .gang("pg", PlacementStrategy.STRICT_SPREAD, ONE(), ONE(), ONE(), ONE()),
                            decision -> assertThat(target(decision, "cpu4").targetReplicas()).isEqualTo(4)),
                    when("a gang that does not fit whole takes nothing",
                            Snapshots.cluster().group(group("cpu4", 0, 0, 2, "CPU", "4"))
                                .gang("pg", PlacementStrategy.STRICT_SPREAD, ONE(), ONE(), ONE())
                                .tasks(1, "CPU", "1"),
                            decision -> {
                                assertThat(target(decision, "cpu4").targetReplicas()).as("only the task's node").isEqualTo(1);
                                assertThat(decision.infeasible()).singleElement()
                                        .satisfies(i -> assertThat(i.reason()).isEqualTo(InfeasibleReason.MAX_REPLICAS));
                            }),
                    when("strict pack merges bundles onto one node",
                            Snapshots.cluster().group(group("cpu8", 0, 0, 10, "CPU", "8"))
                                .gang("pg", PlacementStrategy.STRICT_PACK, cpus("3"), cpus("3")),
                            decision -> assertThat(target(decision, "cpu8").targetReplicas()).isEqualTo(1)),
                    when("strict pack too big for any node takes nothing",
                            Snapshots.cluster().group(group("cpu4", 0, 0, 10, "CPU", "4"))
                                .gang("pg", PlacementStrategy.STRICT_PACK, cpus("3"), cpus("3")),
                            decision -> {
                                assertThat(decision.changesAnything()).isFalse();
                                assertThat(decision.infeasible()).singleElement().satisfies(i -> {
                                    assertThat(i.gangId()).isEqualTo("pg");
                                    assertThat(i.reason()).isEqualTo(InfeasibleReason.NO_GROUP_FITS);
                                });
                            }),
                    when("spread uses distinct existing nodes",
                            Snapshots.cluster().group(group("cpu4", 2, 0, 10, "CPU", "4"))
                                .idle("a", "cpu4", FOUR_CPU, Duration.ZERO).idle("b", "cpu4", FOUR_CPU, Duration.ZERO)
                                .gang("pg", PlacementStrategy.SPREAD, ONE(), ONE()),
                            decision -> assertThat(decision.changesAnything()).isFalse()),
                    when("spread launches no extra nodes for itself",
                            Snapshots.cluster().group(group("cpu4", 0, 0, 10, "CPU", "4"))
                                .gang("pg", PlacementStrategy.SPREAD, ONE(), ONE(), ONE()),
                            decision -> assertThat(target(decision, "cpu4").targetReplicas()).isEqualTo(1)));
        }

        @ParameterizedTest(name = "{0}")
        @MethodSource("cases")
        void plans(Case planCase) {
            check(planCase);
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

        static Stream<Named<Case>> cases() {
            return Stream.of(
                    when("request_resources counts against total capacity, busy or not",
                            Snapshots.cluster().group(group("cpu4", 2, 0, 10, "CPU", "4"))
                                .busy("a", "cpu4", FOUR_CPU, Resources.NONE).busy("b", "cpu4", FOUR_CPU, Resources.NONE)
                                .constraint(4, "CPU", "4"),
                            decision -> assertThat(target(decision, "cpu4").targetReplicas()).isEqualTo(4)),
                    when("request_resources is all or nothing",
                            Snapshots.cluster().group(group("cpu4", 0, 0, 3, "CPU", "4")).constraint(4, "CPU", "4"),
                            decision -> {
                                assertThat(decision.changesAnything()).isFalse();
                                assertThat(decision.infeasible()).singleElement()
                                        .satisfies(i -> assertThat(i.reason()).isEqualTo(InfeasibleReason.MAX_REPLICAS));
                            }),
                    when("request_resources keeps the idle nodes it counts",
                            Snapshots.cluster().group(group("cpu4", 2, 0, 10, "CPU", "4"))
                                .idle("a", "cpu4", FOUR_CPU, Duration.ofMinutes(10)).idle("b", "cpu4", FOUR_CPU, Duration.ofMinutes(10))
                                .constraint(1, "CPU", "4"),
                            decision -> assertThat(deleted(decision, "cpu4")).hasSize(1)));
        }

        @ParameterizedTest(name = "{0}")
        @MethodSource("cases")
        void plans(Case planCase) {
            check(planCase);
        }

    }

    @Nested
    class ScaleDown {

        /** A TPU host's resources, the same on every host of a multi-host replica. */
        private static final Resources SLICE = Resources.of("TPU", "4");

        static Stream<Named<Case>> cases() {
            return Stream.of(
                    when("never removes a busy node or one that pending demand will use",
                            Snapshots.cluster().group(group("cpu4", 2, 0, 10, "CPU", "4"))
                                .busy("busy", "cpu4", FOUR_CPU, Resources.of("CPU", "3"))
                                .idle("needed", "cpu4", FOUR_CPU, Duration.ofHours(1))
                                .tasks(6, "CPU", "1"),
                            decision -> {
                                assertThat(target(decision, "cpu4").toDelete()).isEmpty();
                                assertThat(target(decision, "cpu4").targetReplicas()).isEqualTo(2);
                            }),
                    when("above maxReplicas, pending pods go first, then idle ones, never busy ones",
                            Snapshots.cluster().group(group("cpu4", 5, 0, 2, "CPU", "4"))
                                .busy("busy1", "cpu4", FOUR_CPU, Resources.NONE)
                                .busy("busy2", "cpu4", FOUR_CPU, Resources.NONE)
                                .busy("busy3", "cpu4", FOUR_CPU, Resources.NONE)
                                .idle("idle", "cpu4", FOUR_CPU, Duration.ofSeconds(5))
                                .pendingPod("waiting", "cpu4", Duration.ofSeconds(5)),
                            decision -> {
                                GroupTarget cpu4 = target(decision, "cpu4");
                                assertThat(cpu4.toDelete()).extracting(PodDeletion::podName).containsExactly("waiting", "idle");
                                assertThat(cpu4.toDelete()).allSatisfy(d -> assertThat(d.cause()).isEqualTo(DeletionCause.MAX_REPLICAS));
                                assertThat(cpu4.targetReplicas()).isEqualTo(2);
                                assertThat(cpu4.notes()).singleElement().asString().contains("1 replica(s) above maxReplicas 2 are busy");
                            }),
                    when("above the cluster's worker cap, what is not yet running goes first",
                            Snapshots.cluster()
                                .group(group("type_1", 2, 0, 2, "CPU", "1")).group(group("type_2", 2, 0, 2, "CPU", "1")).maxWorkers(3)
                                .pendingPod("0", "type_1", Duration.ZERO)
                                .idle("1", "type_1", Resources.of("CPU", "1"), Duration.ofMillis(10))
                                .busy("2", "type_2", Resources.of("CPU", "1"), Resources.of("CPU", "0.5"))
                                .busy("3", "type_2", Resources.of("CPU", "1"), Resources.NONE),
                            decision -> {
                                assertThat(deleted(decision, "type_1")).containsExactly("0");
                                assertThat(target(decision, "type_1").toDelete())
                                        .allSatisfy(d -> assertThat(d.cause()).isEqualTo(DeletionCause.MAX_WORKERS));
                            }),
                    when("nodes idle past the timeout go, longest idle first, down to minReplicas",
                            Snapshots.cluster().group(group("cpu4", 4, 1, 10, "CPU", "4"))
                                .idle("short", "cpu4", FOUR_CPU, Duration.ofSeconds(30))
                                .idle("long", "cpu4", FOUR_CPU, Duration.ofSeconds(600))
                                .idle("longer", "cpu4", FOUR_CPU, Duration.ofSeconds(900))
                                .idle("longest", "cpu4", FOUR_CPU, Duration.ofSeconds(1200)),
                            decision -> {
                                assertThat(deleted(decision, "cpu4")).containsExactly("longest", "longer", "long");
                                assertThat(target(decision, "cpu4").targetReplicas()).isEqualTo(1);
                                assertThat(target(decision, "cpu4").toDelete())
                                        .allSatisfy(d -> assertThat(d.cause()).isEqualTo(DeletionCause.IDLE));
                            }),
                    when("idle nodes at minReplicas stay",
                            Snapshots.cluster().group(group("cpu4", 2, 2, 10, "CPU", "4"))
                                .idle("a", "cpu4", FOUR_CPU, Duration.ofHours(1)).idle("b", "cpu4", FOUR_CPU, Duration.ofHours(1)),
                            decision -> assertThat(decision.changesAnything()).isFalse()),
                    when("a group's idle timeout overrides the cluster's",
                            Snapshots.cluster().group(new WorkerGroup("cpu4", 0, 1, 0, 10, 1, FOUR_CPU, Map.of(), List.of(), 3600L, false))
                                .idle("a", "cpu4", FOUR_CPU, Duration.ofMinutes(10)),
                            decision -> assertThat(decision.changesAnything()).isFalse()),
                    when("no new deletions while the operator is still deleting",
                            Snapshots.cluster().group(new WorkerGroup("cpu4", 0, 2, 0, 10, 1, FOUR_CPU, Map.of(), List.of("going"), null, false))
                                .idle("going", "cpu4", FOUR_CPU, Duration.ofHours(1))
                                .idle("a", "cpu4", FOUR_CPU, Duration.ofHours(1))
                                .idle("b", "cpu4", FOUR_CPU, Duration.ofHours(1)),
                            decision -> {
                                assertThat(target(decision, "cpu4").toDelete()).isEmpty();
                                assertThat(target(decision, "cpu4").currentWorkersToDelete()).containsExactly("going");
                            }),
                    when("a multi-host replica goes whole, and only when every host is idle",
                            Snapshots.cluster().group(new WorkerGroup("tpu", 0, 2, 0, 4, 2, SLICE, Map.of(), List.of(), null, false))
                                .node(host("r0-h0", "r0", SLICE, SLICE, 600_000))
                                .node(host("r0-h1", "r0", SLICE, SLICE, 700_000))
                                .node(host("r1-h0", "r1", SLICE, SLICE, 900_000))
                                .node(host("r1-h1", "r1", SLICE, Resources.NONE, 0)),
                            decision -> {
                                assertThat(deleted(decision, "tpu")).containsExactlyInAnyOrder("r0-h0", "r0-h1");
                                assertThat(target(decision, "tpu").targetReplicas()).isEqualTo(1);
                            }),
                    when("multi-host groups grow in whole replicas",
                            Snapshots.cluster().group(new WorkerGroup("tpu", 0, 0, 0, 4, 4, SLICE, Map.of(), List.of(), null, false))
                                .tasks(5, "TPU", "4"),
                            decision -> {
                                assertThat(target(decision, "tpu").targetReplicas()).isEqualTo(2);
                                assertThat(decision.launches()).containsExactly(new PendingLaunch("tpu", 8, 0));
                            }));
        }

        @ParameterizedTest(name = "{0}")
        @MethodSource("cases")
        void plans(Case planCase) {
            check(planCase);
        }

        private static RayNode host(String pod, String replica, Resources total, Resources available, long idleMs) {
            return new RayNode("id-" + pod, pod, replica, "tpu", idleMs > 0 ? NodeStatus.IDLE : NodeStatus.RUNNING, total, available,
                    idleMs, Map.of(), null, List.of());
        }
    }

    /** Whatever a snapshot says, one decision opens and models a bounded number of nodes (Plan.MAX_NEW_NODES). */
    @Nested
    class BoundedWhateverTheSnapshot {

        @Test
        void aReplicaOfMillionsOfHostsIsNotOpened() {
            ScaleDecision decision = plan(Snapshots.cluster()
                    .group(new WorkerGroup("huge", 0, 0, 0, Integer.MAX_VALUE, 5_000_000, FOUR_CPU, Map.of(), List.of(), null, false))
                    .tasks(1, "CPU", "1"));

            assertThat(target(decision, "huge").targetReplicas()).isZero();
            assertThat(decision.codedReasons()).anySatisfy(reason -> {
                assertThat(reason.code()).isEqualTo(ReasonCode.UPSCALING_LIMITED);
                assertThat(reason.detail()).contains("at most " + Plan.MAX_NEW_NODES + " nodes");
            });
        }

        @Test
        void requestResourcesForMillionsOfNodesIsBeyondTheBoundAndSaysSo() {
            ScaleDecision decision = plan(Snapshots.cluster().group(group("g", 0, 0, Integer.MAX_VALUE, "CPU", "1"))
                    .constraint(2_000_000, "CPU", "1"));

            // request_resources is all or nothing (Ray's scheduler.py _try_schedule_constraints): it does not fit the bound.
            assertThat(target(decision, "g").targetReplicas()).isZero();
            assertThat(decision.codedReasons()).extracting(Reason::code).contains(ReasonCode.UPSCALING_LIMITED);
        }

        @Test
        void replicasOfMillionsWithoutPodsAreNotEachModelled() {
            ScaleDecision decision = plan(Snapshots.cluster().group(group("g", 3_000_000, 0, Integer.MAX_VALUE, "CPU", "1"))
                    .tasks(1, "CPU", "1"));

            assertThat(target(decision, "g").targetReplicas()).isEqualTo(3_000_000);
            assertThat(decision.launches()).containsExactly(new PendingLaunch("g", 0, 3_000_000));
        }
    }

    @Nested
    class PendingPods {

        static Stream<Named<Case>> cases() {
            return Stream.of(
                    when("a pod waiting longer than the patience is reported, not deleted",
                            Snapshots.walkthrough().group(group("other", 0, 0, 1, "CPU", "1"))
                                .pendingPod("young", "small-group", Duration.ofMinutes(14))
                                .pendingPod("old", "small-group", Duration.ofMinutes(16)),
                            decision -> {
                                assertThat(decision.stuckPods()).singleElement().satisfies(stuck -> {
                                    assertThat(stuck.podName()).isEqualTo("old");
                                    assertThat(stuck.waitingSeconds()).isEqualTo(960);
                                    assertThat(stuck.reason()).isEqualTo("Unschedulable");
                                });
                                assertThat(target(decision, "small-group").toDelete()).isEmpty();
                            }),
                    when("a stuck pod is replaced only if the policy says so",
                            Snapshots.walkthrough().stuckPodPolicy(300, true)
                                .pendingPod("young", "small-group", Duration.ofMinutes(4))
                                .pendingPod("old", "small-group", Duration.ofMinutes(6)),
                            decision -> {
                                GroupTarget small = target(decision, "small-group");
                                assertThat(small.toDelete()).singleElement().satisfies(d -> {
                                    assertThat(d.podName()).isEqualTo("old");
                                    assertThat(d.cause()).isEqualTo(DeletionCause.STUCK_PENDING);
                                });
                                assertThat(small.targetReplicas()).as("replaced, not removed").isEqualTo(2);
                            }),
                    when("age is measured on the snapshot's clock",
                            Snapshots.walkthrough().pendingPod(new PendingPod("p", null, "small-group", "Pending", null,
                                Snapshots.NOW.minus(Duration.ofMinutes(20)))),
                            decision -> assertThat(decision.stuckPods()).hasSize(1)));
        }

        @ParameterizedTest(name = "{0}")
        @MethodSource("cases")
        void plans(Case planCase) {
            check(planCase);
        }
    }

    @Nested
    class UnknownIsNotZero {

        static Stream<Named<Case>> cases() {
            return Stream.of(
                    when("an unreadable GCS holds the size but still honours minReplicas",
                            Snapshots.cluster()
                                .group(group("a", 5, 0, 10, "CPU", "1")).group(group("b", 0, 2, 10, "CPU", "1"))
                                .gcsUnavailable("UNAVAILABLE", "connection refused"),
                            decision -> {
                                assertThat(target(decision, "a").targetReplicas()).isEqualTo(5);
                                assertThat(target(decision, "a").toDelete()).isEmpty();
                                assertThat(target(decision, "b").targetReplicas()).isEqualTo(2);
                                assertThat(decision.reasons().get(0)).isEqualTo("holding the current size: the Ray GCS could not be read (UNAVAILABLE: connection refused)");
                                assertThat(decision.mode()).isEqualTo(DecisionMode.HOLD);
                                assertThat(decision.codedReasons()).extracting(Reason::code, Reason::group)
                                        .containsExactly(tuple(ReasonCode.GCS_UNREADABLE, null), tuple(ReasonCode.REPLICAS_CHANGED, "b"));
                            }),
                    when("a stale Kubernetes view holds the size",
                            Snapshots.cluster().group(group("cpu4", 2, 0, 10, "CPU", "4"))
                                .idle("a", "cpu4", FOUR_CPU, Duration.ofHours(1)).idle("b", "cpu4", FOUR_CPU, Duration.ofHours(1))
                                .tasks(100, "CPU", "1").kubernetesStale("watch disconnected"),
                            decision -> {
                                assertThat(decision.changesAnything()).isFalse();
                                assertThat(decision.reasons().get(0)).contains("stale", "watch disconnected");
                                assertThat(decision.mode()).isEqualTo(DecisionMode.HOLD);
                                assertThat(decision.codedReasons().get(0).code()).isEqualTo(ReasonCode.KUBERNETES_UNRELIABLE);
                            }),
                    when("a spec KubeRay is not acting on is left alone, even below minReplicas: writes would change nothing",
                            Snapshots.cluster().group(group("cpu4", 2, 5, 10, "CPU", "4"))
                                .idle("a", "cpu4", FOUR_CPU, Duration.ofHours(1)).tasks(100, "CPU", "1")
                                .notReconciled("status.observedGeneration 6 has stayed behind generation 7 for 90 s"),
                            decision -> {
                                assertThat(decision.changesAnything()).isFalse();
                                assertThat(decision.mode()).isEqualTo(DecisionMode.FROZEN);
                                assertThat(decision.reasons().get(0)).contains("KubeRay is not acting", "behind generation 7");
                                assertThat(decision.codedReasons()).extracting(Reason::code).containsExactly(ReasonCode.SPEC_NOT_RECONCILED);
                            }),
                    when("bounds KubeRay refuses (minReplicas above maxReplicas) leave the cluster alone at once",
                            Snapshots.cluster().group(group("cpu", 2, 12, 10, "CPU", "1")).tasks(20, "CPU", "1"),
                            decision -> {
                                assertThat(decision.changesAnything()).isFalse();
                                assertThat(decision.mode()).isEqualTo(DecisionMode.FROZEN);
                                assertThat(decision.reasons().get(0)).contains("minReplicas 12 greater than maxReplicas 10");
                            }),
                    when("a suspended cluster is left alone",
                            Snapshots.walkthrough().suspended().tasks(15, "CPU", "1"),
                            decision -> {
                                assertThat(decision.changesAnything()).isFalse();
                                assertThat(decision.mode()).isEqualTo(DecisionMode.FROZEN);
                                assertThat(decision.codedReasons()).extracting(Reason::code).containsExactly(ReasonCode.SUSPENDED);
                            }),
                    when("a cluster whose Ray Rayscale cannot serve is left alone, even below minReplicas",
                            Snapshots.cluster().group(group("a", 0, 2, 10, "CPU", "1")).tasks(15, "CPU", "1")
                                .versions("2.5.1", Support.UNSUPPORTED, "Ray 2.5.1 has no autoscaler state service; 2.7.0 is the lowest served"),
                            decision -> {
                                assertThat(decision.changesAnything()).isFalse();
                                assertThat(decision.mode()).isEqualTo(DecisionMode.FROZEN);
                                assertThat(decision.launches()).isEmpty();
                                assertThat(decision.codedReasons()).extracting(Reason::code).containsExactly(ReasonCode.VERSION_UNSUPPORTED);
                                assertThat(decision.reasons().get(0)).contains("Ray 2.5.1 has no autoscaler state service");
                            }),
                    when("a cluster whose Ray allows no safe scale-down grows but keeps its idle nodes",
                            Snapshots.cluster().group(group("cpu4", 3, 0, 2, "CPU", "4"))
                                .idle("a", "cpu4", FOUR_CPU, Duration.ofHours(1)).idle("b", "cpu4", FOUR_CPU, Duration.ofHours(1))
                                .idle("c", "cpu4", FOUR_CPU, Duration.ofHours(1))
                                .group(group("cpu1", 0, 0, 10, "CPU", "1")).tasks(40, "CPU", "4").tasks(2, "CPU", "1")
                                .versions("2.8.1", Support.SCALE_UP_ONLY, "Ray 2.8.1 numbers drain reasons differently; 2.10.0 drains"),
                            decision -> {
                                assertThat(decision.mode()).isEqualTo(DecisionMode.ACTIVE);
                                assertThat(target(decision, "cpu4").toDelete()).as("above maxReplicas and idle, but no node is named").isEmpty();
                                assertThat(target(decision, "cpu1").targetReplicas()).as("it grows for the 1-CPU tasks").isEqualTo(2);
                                assertThat(decision.codedReasons()).extracting(Reason::code).contains(ReasonCode.SCALE_DOWN_UNSAFE)
                                        .doesNotContain(ReasonCode.IDLE_REMOVED, ReasonCode.ABOVE_WORKER_CAP);
                            }),
                    when("a cluster whose Ray allows no safe scale-down still scales up",
                            Snapshots.walkthrough().tasks(15, "CPU", "1")
                                .versions("2.8.1", Support.SCALE_UP_ONLY, "Ray 2.8.1 numbers drain reasons differently; 2.10.0 drains"),
                            decision -> assertThat(target(decision, "small-group").targetReplicas()).isEqualTo(15)),
                    when("a suspended group is left alone",
                            Snapshots.cluster().group(new WorkerGroup("paused", 0, 3, 0, 10, 1, FOUR_CPU, Map.of(), List.of(), null, true))
                                .idle("a", "paused", FOUR_CPU, Duration.ofHours(1))
                                .tasks(40, "CPU", "4"),
                            decision -> {
                                assertThat(decision.changesAnything()).isFalse();
                                assertThat(decision.infeasible()).singleElement().satisfies(i -> assertThat(i.reason())
                                        .isEqualTo(InfeasibleReason.SUSPENDED));
                            }));
        }

        @ParameterizedTest(name = "{0}")
        @MethodSource("cases")
        void plans(Case planCase) {
            check(planCase);
        }
    }

    @Nested
    class Labels {

        private static final WorkerGroup SPOT = new WorkerGroup("spot", 0, 0, 0, 10, 1, FOUR_CPU, Map.of("market", "spot"), List.of(), null,
                false);
        private static final WorkerGroup ON_DEMAND = new WorkerGroup("on-demand", 0, 0, 0, 10, 1, FOUR_CPU, Map.of("market", "on-demand"),
                List.of(), null, false);

        static Stream<Named<Case>> cases() {
            return Stream.of(
                    when("label selectors choose the group",
                            Snapshots.cluster().group(SPOT).group(ON_DEMAND)
                                .tasks(4, List.of(selector("market", LabelOperator.IN, "on-demand")), "CPU", "1"),
                            decision -> {
                                assertThat(target(decision, "on-demand").targetReplicas()).isEqualTo(1);
                                assertThat(target(decision, "spot").targetReplicas()).isZero();
                            }),
                    when("label selectors fall back in order, and what nothing matches is reported",
                            Snapshots.cluster().group(SPOT)
                                .tasks(4, List.of(selector("market", LabelOperator.IN, "reserved"), selector("market", LabelOperator.NOT_IN, "on-demand")),
                                    "CPU", "1")
                                .tasks(1, List.of(selector("zone", LabelOperator.IN, "mars")), "CPU", "1"),
                            decision -> {
                                assertThat(target(decision, "spot").targetReplicas()).isEqualTo(1);
                                assertThat(decision.infeasible()).singleElement()
                                        .satisfies(i -> assertThat(i.reason()).isEqualTo(InfeasibleReason.LABELS_UNMATCHED));
                            }),
                    when("a placement group's bundles go where their label selectors say (fact D52, bundle_selectors)",
                            Snapshots.cluster().group(SPOT).group(ON_DEMAND)
                                .gang(new GangDemand("pg1", PlacementStrategy.PACK, List.of(Resources.of("CPU", "4"), Resources.of("CPU", "4")), null,
                                        List.of(List.of(selector("market", LabelOperator.IN, "on-demand")), List.of()))),
                            decision -> {
                                assertThat(target(decision, "on-demand").targetReplicas()).as("the selecting bundle").isEqualTo(1);
                                assertThat(target(decision, "spot").targetReplicas() + target(decision, "on-demand").targetReplicas())
                                        .as("and the free one on a node of its own").isEqualTo(2);
                            }),
                    when("a STRICT_PACK group's one node matches every bundle's selector; a bundle no group matches makes its group infeasible",
                            Snapshots.cluster().group(SPOT).group(ON_DEMAND)
                                .gang(new GangDemand("pg2", PlacementStrategy.STRICT_PACK, List.of(Resources.of("CPU", "1"), Resources.of("CPU", "1")),
                                        null, List.of(List.of(), List.of(selector("market", LabelOperator.IN, "spot")))))
                                .gang(new GangDemand("pg3", PlacementStrategy.PACK, List.of(Resources.of("CPU", "1")), null,
                                        List.of(List.of(selector("market", LabelOperator.IN, "reserved"))))),
                            decision -> {
                                assertThat(target(decision, "spot").targetReplicas()).isEqualTo(1);
                                assertThat(target(decision, "on-demand").targetReplicas()).isZero();
                                assertThat(decision.infeasible()).singleElement().satisfies(i -> {
                                    assertThat(i.gangId()).isEqualTo("pg3");
                                    assertThat(i.reason()).isEqualTo(InfeasibleReason.LABELS_UNMATCHED);
                                });
                            }),
                    when("Ray's default label ray.io/node-group, given to each group as its nodes carry it, scales a group up from zero (fact D53)",
                            Snapshots.cluster().group(new WorkerGroup("a", 0, 0, 0, 10, 1, FOUR_CPU, Map.of("ray.io/node-group", "a"), List.of(), null, false))
                                .group(new WorkerGroup("b", 0, 0, 0, 10, 1, FOUR_CPU, Map.of("ray.io/node-group", "b"), List.of(), null, false))
                                .tasks(2, List.of(selector("ray.io/node-group", LabelOperator.IN, "b")), "CPU", "4"),
                            decision -> {
                                assertThat(target(decision, "b").targetReplicas()).isEqualTo(2);
                                assertThat(target(decision, "a").targetReplicas()).isZero();
                            }));
        }

        @ParameterizedTest(name = "{0}")
        @MethodSource("cases")
        void plans(Case planCase) {
            check(planCase);
        }

        private static LabelSelector selector(String key, LabelOperator operator, String value) {
            return new LabelSelector(List.of(new LabelConstraint(key, operator, List.of(value))));
        }
    }

    @Nested
    class Determinism {

        static Stream<Named<Case>> cases() {
            return Stream.of(
                    when("a decision names its snapshot and the resourceVersion it assumed",
                            Snapshots.walkthrough().id("snap-42").tasks(1, "CPU", "1"),
                            decision -> {
                                assertThat(decision.snapshotId()).isEqualTo("snap-42");
                                assertThat(decision.snapshotSequence()).isEqualTo(7);
                                assertThat(decision.resourceVersion()).isEqualTo("100");
                                assertThat(decision.decidedAt()).isEqualTo(Snapshots.NOW);
                            }));
        }

        @ParameterizedTest(name = "{0}")
        @MethodSource("cases")
        void plans(Case planCase) {
            check(planCase);
        }

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

    }

    /** What the real Ray and KubeRay do that a planner must not misread (facts of the shared ray-kuberay-behaviours.md). */
    @Nested
    class FaithfulToRayAndKubeRay {

        private static final String QUOTA = "pods \"c-gpu-worker-x7k2p\" is forbidden: exceeded quota";
        private static final WorkerGroup FAILING = with(group("gpu", 3, 0, 10, "CPU", "4", "GPU", "1"), false, List.of(), List.of(),
                "exceeded quota");

        static Stream<Named<Case>> cases() {
            return Stream.of(
                    when("a suspended group is no capacity on its way",
                            Snapshots.cluster()
                                .group(with(group("cpu4", 3, 0, 10, "CPU", "4"), true, List.of(), List.of(), null))
                                .tasks(4, "CPU", "1"),
                            decision -> {
                                assertThat(decision.infeasible()).singleElement().satisfies(infeasible -> {
                                    assertThat(infeasible.count()).isEqualTo(4);
                                    assertThat(infeasible.reason()).isEqualTo(InfeasibleReason.SUSPENDED);
                                });
                                assertThat(decision.launches()).isEmpty();
                            }),
                    when("a node whose pod is gone is not counted, so no replica is added for it",
                            Snapshots.cluster().group(group("cpu4", 1, 0, 10, "CPU", "4"))
                                .node(new RayNode("id-old", "old", null, "cpu4", NodeStatus.IDLE, FOUR_CPU, FOUR_CPU, 20_000, Map.of(), null, List.of(),
                                    PodState.GONE))
                                .pendingPod("replacement", "cpu4", Duration.ofSeconds(5)),
                            decision -> assertThat(decision.changesAnything())
                                    .as("the vanished pod's node is no capacity and no replica").isFalse()),
                    when("a pod with two live nodes counts once and is not removed",
                            Snapshots.cluster().group(group("cpu4", 2, 0, 10, "CPU", "4"))
                                .node(new RayNode("id-old", "restarted", null, "cpu4", NodeStatus.IDLE, FOUR_CPU, FOUR_CPU, 600_000, Map.of(), null,
                                    List.of()))
                                .node(new RayNode("id-new", "restarted", null, "cpu4", NodeStatus.IDLE, FOUR_CPU, FOUR_CPU, 900_000, Map.of(), null,
                                    List.of()))
                                .busy("other", "cpu4", FOUR_CPU, Resources.NONE),
                            decision -> {
                                assertThat(target(decision, "cpu4").targetReplicas()).as("two pods, not three").isEqualTo(2);
                                assertThat(target(decision, "cpu4").toDelete()).as("a pod whose raylet restarted is in flux").isEmpty();
                            }),
                    when("no new deletions while a named pod is still terminating",
                            Snapshots.cluster()
                                .group(with(group("cpu4", 2, 0, 10, "CPU", "4"), false, List.of("going"), List.of("going"), null))
                                .idle("a", "cpu4", FOUR_CPU, Duration.ofHours(1))
                                .idle("b", "cpu4", FOUR_CPU, Duration.ofHours(1)),
                            decision -> assertThat(target(decision, "cpu4").toDelete()).isEmpty()),
                    when("replicas never drop below the pods left unnamed, terminating ones included",
                            Snapshots.cluster()
                                .group(with(group("cpu4", 3, 0, 10, "CPU", "4"), false, List.of(), List.of("evicted"), null))
                                .idle("a", "cpu4", FOUR_CPU, Duration.ofHours(1))
                                .busy("b", "cpu4", FOUR_CPU, Resources.NONE)
                                .busy("c", "cpu4", FOUR_CPU, Resources.NONE),
                            decision -> {
                                assertThat(deleted(decision, "cpu4")).containsExactly("a");
                                assertThat(target(decision, "cpu4").targetReplicas())
                                        .as("b, c and the evicted pod still count").isEqualTo(3);
                                assertThat(target(decision, "cpu4").notes()).anySatisfy(note -> assertThat(note).contains("pods of its own choosing"));
                            }),
                    when("a huge backlog costs counts, not nodes",
                            Snapshots.cluster().group(group("cpu1", 0, 0, Integer.MAX_VALUE, "CPU", "1"))
                                .tasks(50_000_000, "CPU", "1"),
                            decision -> {
                                assertThat(target(decision, "cpu1").targetReplicas())
                                        .as("the cluster's cap on pending launches").isEqualTo(100);
                                assertThat(decision.infeasible()).isEmpty();
                                assertThat(decision.reasons()).anySatisfy(reason -> assertThat(reason).contains("wait for the upscaling limit"));
                            }),
                    when("a group whose pods cannot be created gets no demand: another group serves it, and the failure is reported",
                            Snapshots.cluster()
                                .group(with(group("gpu", 3, 0, 10, "CPU", "4", "GPU", "1"), false, List.of(), List.of(), QUOTA))
                                .group(group("cpu", 0, 0, 10, "CPU", "4"))
                                .tasks(4, "CPU", "4")
                                .tasks(2, "GPU", "1"),
                            decision -> {
                                assertThat(target(decision, "cpu").targetReplicas())
                                        .as("the CPU work goes where pods can be made").isEqualTo(4);
                                assertThat(target(decision, "gpu").targetReplicas()).isEqualTo(3);
                                assertThat(decision.infeasible()).singleElement().satisfies(infeasible -> {
                                    assertThat(infeasible.count()).isEqualTo(2);
                                    assertThat(infeasible.reason()).isEqualTo(InfeasibleReason.LAUNCH_FAILED);
                                });
                                assertThat(decision.launches()).filteredOn(launch -> launch.group().equals("gpu")).singleElement()
                                        .satisfies(launch -> {
                                            assertThat(launch.failed()).isEqualTo(3);
                                            assertThat(launch.failure()).isEqualTo(QUOTA);
                                        });
                            }),
                    when("replicas whose pods cannot be created are kept while demand waits for them",
                            Snapshots.cluster().group(FAILING)
                                .busy("g1", "gpu", Resources.of("CPU", "4", "GPU", "1"), Resources.of("CPU", "3")).tasks(2, "GPU", "1"),
                            decision -> assertThat(target(decision, "gpu").targetReplicas()).as("the operator keeps trying").isEqualTo(3)),
                    when("replicas whose pods cannot be created are given back once no demand waits for them",
                            Snapshots.cluster().group(FAILING)
                                .busy("g1", "gpu", Resources.of("CPU", "4", "GPU", "1"), Resources.of("CPU", "3")),
                            decision -> {
                                assertThat(target(decision, "gpu").targetReplicas()).isEqualTo(1);
                                assertThat(decision.reasons()).anySatisfy(reason -> assertThat(reason).contains("give back 2 replica(s)"));
                            }));
        }

        @ParameterizedTest(name = "{0}")
        @MethodSource("cases")
        void plans(Case planCase) {
            check(planCase);
        }

        private static WorkerGroup with(WorkerGroup group, boolean suspended, List<String> workersToDelete, List<String> terminating,
                String launchFailure) {
            return new WorkerGroup(group.name(), group.index(), group.replicas(), group.minReplicas(), group.maxReplicas(),
                    group.numOfHosts(), group.resources(), group.labels(), workersToDelete, group.idleTimeoutSeconds(), suspended, terminating,
                    launchFailure);
        }

    }
}
