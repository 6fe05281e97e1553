package dev.rayscale.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rayscale.demo.DemoRun;
import dev.rayscale.demo.OtherWriterReport;
import dev.rayscale.demo.Summary;
import dev.rayscale.events.ActuationResult;
import dev.rayscale.events.GroupActuation;
import dev.rayscale.events.GroupTarget;
import dev.rayscale.events.Outcome;
import dev.rayscale.events.ScaleDecision;
import dev.rayscale.sim.ClientPath;
import dev.rayscale.sim.Sample;
import dev.rayscale.sim.Workload;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Rayscale end to end, as in production: the three services as separate processes over a real Kafka
 * broker, against a simulated KubeRay + Ray cluster reached through a Kubernetes API and Ray's GCS
 * protocol, on a simulated clock.
 */
class ClosedLoopTest {

    /**
     * Rayscale's bound in a contest (3 writes after another writer's change, the default) for a scale-down that takes two
     * patches: the removal, then workersToDelete cleared once its pods are gone.
     */
    private static final long CONTESTED_PATCHES_BOUND = 2 * 3;

    @Test
    void theWalkthroughScalesTo15AtOnceRunsEverythingAndReturnsToZero() throws Exception {
        Workload walkthrough = Workload.shipped("walkthrough");
        try (DemoRun run = ClosedLoops.start(walkthrough, 20, "e2e-walkthrough")) {
            assertThat(run.awaitSettled()).as("settles: work done, back to minReplicas").isTrue();
            Summary summary = run.summary(true);
            List<ScaleDecision> decisions = run.trail().decisions();
            List<ActuationResult> actuations = run.trail().actuations();

            assertThat(target(decisions.get(0))).as("the first decision asks for all 15 workers (Default mode)").isEqualTo(15);
            assertThat(summary.completedTasks()).isEqualTo(15);
            assertThat(summary.peakWorkers()).isEqualTo(15);
            assertThat(summary.finalWorkers()).isZero();
            ClosedLoops.assertHealthy(run);

            // Pods waiting for the node autoscaler are neither killed nor asked for again.
            assertThat(decisions).allSatisfy(decision -> assertThat(target(decision)).isLessThanOrEqualTo(15));
            assertThat(decisions).flatExtracting(ScaleDecision::groups).flatExtracting(GroupTarget::toDelete)
                    .allSatisfy(deletion -> assertThat(deletion.cause().name()).isEqualTo("IDLE"));
            List<Sample> samples = run.samples();
            assertThat(samples).anyMatch(sample -> sample.waitingPods() >= 10);
            int podsWhileWaiting = samples.stream().filter(s -> s.waitingPods() > 0).mapToInt(Sample::workerPods).max().orElseThrow();
            assertThat(podsWhileWaiting).isEqualTo(15);

            ClosedLoops.assertAuditChainComplete(run);
            ClosedLoops.assertNoDecisionAppliedTwice(actuations);
            Path report = run.writeReport(Files.createTempDirectory("rayscale-e2e").resolve("walkthrough.html"), summary);
            assertThat(Files.readString(report)).contains("<svg", "walkthrough");
            ReportPages.assertReadable(report, decisions.size(), "demo-report.png");
        }
    }

    /** The audit's page of the golden walkthrough recording, made by the command line as a user runs it, read in a browser. */
    @Test
    void theAuditPageReadsInABrowser() throws Exception {
        Path page = Files.createTempDirectory("rayscale-e2e").resolve("audit.html");
        Process audit = new ProcessBuilder(ClosedLoops.ROOT.resolve("rayscale").toString(), "audit", "--file",
                ClosedLoops.ROOT.resolve("audit/src/main/resources/dev/rayscale/audit/golden/walkthrough.events.jsonl.gz").toString(),
                "--format", "html", "--output", page.toString()).redirectErrorStream(true).start();
        String output = new String(audit.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(audit.waitFor()).as(output).isZero();
        Matcher decisions = Pattern.compile(" decisions=(\\d+) ").matcher(output);
        assertThat(decisions.find()).as(output).isTrue();

        ReportPages.assertReadable(page, Integer.parseInt(decisions.group(1)), "audit-report.png");
    }

    /**
     * The faults a real cluster sees, on the faithful model of Ray and KubeRay: each workload settles
     * back to its minimum with no pod deleted while it ran work, no GCS crashed by Rayscale, and no pod
     * deleted by the operator's own choice.
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"head-restart", "raylet-restart", "quota", "eviction-churn", "suspend"})
    void settlesSafelyThrough(String workload) throws Exception {
        try (DemoRun run = ClosedLoops.start(Workload.shipped(workload), 20, "e2e-" + workload)) {
            assertThat(run.awaitSettled()).as("settles: work done, back to minReplicas").isTrue();
            Summary summary = run.summary(true);
            assertThat(summary.finalWorkers()).isZero();
            ClosedLoops.assertHealthy(run);
            if (!workload.equals("quota")) {
                assertThat(run.simulator().happenings()).as("the workload's faults happened").isNotEmpty();
            }
            ClosedLoops.assertAuditChainComplete(run);
            ClosedLoops.assertNoDecisionAppliedTwice(run.trail().actuations());
            if (workload.equals("head-restart")) {
                // A run whose GCS goes away and comes back: every series the dashboard and alerts read exists, the errors' too.
                OperationsMetrics.assertEveryQueriedMetricIsExposed(run.services());
            }
            if (workload.equals("quota")) {
                assertThat(run.trail().decisions()).anySatisfy(decision -> assertThat(decision.launches())
                        .anySatisfy(launch -> assertThat(launch.failure()).contains("exceeded quota")));
                assertThat(run.rayStatusSeen()).anySatisfy(status -> assertThat(status).contains("gpu: LaunchFailed"));
            }
        }
    }

    /**
     * A GitOps tool re-applies its manifest's 4 workers over Rayscale's scale-downs every 30 s (GitOpsWriter). Rayscale names
     * it in Warning Events, patches a bounded number of times, then holds; once the tool stops and the hold ends, Rayscale
     * removes the idle workers. No pod is deleted busy or by the operator's choice: the tool only ever raises replicas here.
     */
    @Test
    void aGitOpsToolThatKeepsReapplyingReplicasIsNamedAndNotFought() throws Exception {
        try (DemoRun run = ClosedLoops.start(Workload.shipped("gitops-reapply"), 20, "e2e-gitops-reapply")) {
            assertThat(run.awaitSettled()).as("settles once the tool stops and the hold ends: %s", run.simulator().happenings()).isTrue();
            ClosedLoops.assertHealthy(run);
            ClosedLoops.assertNoDecisionAppliedTwice(run.trail().actuations());
            OtherWriterReport other = run.otherWriter();

            assertThat(other.syncs()).as("the tool changed Rayscale's values").isGreaterThanOrEqualTo(4);
            assertThat(other.warnings()).as("one Event per change Rayscale read").isNotEmpty()
                    .allSatisfy(message -> assertThat(message).contains("argocd-controller changed workers replicas"));
            assertThat(other.held()).as("decisions held (REJECTED, OTHER_WRITER) among %s", run.trail().actuations().stream()
                    .map(result -> run.simSeconds(result.completedAt()) + " " + result.cause() + ": " + result.reason()).toList()).isPositive();
            assertThat(other.contestedPatches()).as("Rayscale's patches while the tool kept changing its values: %s", other)
                    .isLessThanOrEqualTo(CONTESTED_PATCHES_BOUND);
            assertThat(run.summary(true).finalWorkers()).isZero();
        }
    }

    /**
     * The owner sets minReplicas above maxReplicas; KubeRay refuses the spec and stops reconciling (KubeRayOperator, after
     * KubeRay's ValidateRayClusterSpec). Rayscale freezes the cluster while the spec stays so: work that comes meanwhile
     * waits, nothing is written, and once the owner fixes the spec the work runs and the cluster settles.
     */
    @Test
    void aSpecKubeRayRefusesFreezesTheClusterUntilItIsFixed() throws Exception {
        try (DemoRun run = ClosedLoops.start(Workload.shipped("invalid-spec"), 20, "e2e-invalid-spec")) {
            assertThat(run.awaitSettled()).as("settles once the spec is fixed: %s", run.simulator().happenings()).isTrue();
            ClosedLoops.assertHealthy(run);
            ClosedLoops.assertNoDecisionAppliedTwice(run.trail().actuations());
            List<Sample> refused = run.samples().stream().filter(sample -> sample.seconds() > 170 && sample.seconds() < 295).toList();

            assertThat(run.simulator().happenings()).anyMatch(line -> line.contains("KubeRay refuses the spec"));
            assertThat(refused).as("work waited while KubeRay refused the spec").anySatisfy(sample -> assertThat(sample.pendingTasks()).isPositive());
            assertThat(run.trail().decisions()).as("Rayscale asked for nothing while KubeRay refused the spec")
                    .noneMatch(decision -> decision.grows() && run.simSeconds(decision.decidedAt()) > 45 && run.simSeconds(decision.decidedAt()) < 295);
            assertThat(run.simulator().warningMessages("SpecNotReconciled")).as("the owners told, from the observed generation")
                    .anySatisfy(message -> assertThat(message).contains("status.observedGeneration", "InvalidRayClusterSpec"));
            assertThat(run.summary(true).completedTasks()).isEqualTo(7);
            assertThat(run.summary(true).finalWorkers()).isZero();
        }
    }

    /**
     * A worker group appended to the RayService while its serving replicas are busy: KubeRay's RayService controller rebuilds
     * the cluster's spec from rayClusterConfig (RayServiceController, after rayservice_controller.go modifyRayCluster).
     * Rayscale kept the RayService's replicas in step, so the rebuild keeps every pod: none deleted busy or by the
     * operator's choice; the new group is scaled like any other.
     */
    @Test
    void aRayServiceRebuildKeepsEveryServingReplica() throws Exception {
        try (DemoRun run = ClosedLoops.start(Workload.shipped("rayservice-upgrade"), 20, "e2e-rayservice-upgrade")) {
            assertThat(run.awaitSettled()).as("settles: %s", run.simulator().happenings()).isTrue();
            ClosedLoops.assertHealthy(run);
            ClosedLoops.assertNoDecisionAppliedTwice(run.trail().actuations());

            assertThat(run.simulator().happenings()).anyMatch(line -> line.contains("rebuilds") && line.contains("serve=6"));
            assertThat(run.trail().decisions()).as("the appended group was scaled for its work")
                    .anySatisfy(decision -> assertThat(decision.groups()).anyMatch(group -> group.name().equals("batch") && group.targetReplicas() > 0));
            assertThat(run.summary(true).completedTasks()).isEqualTo(8);
            assertThat(run.summary(true).finalWorkers()).isEqualTo(1);
        }
    }

    /**
     * A multi-host group under restartPolicy Never, where a host that accepts an idle drain ends its pod and the operator
     * deletes its whole replica (KubeRayConformanceTest, facts A3.14 and B8.33), and work ends host by host: every
     * removal names whole replicas, none with a busy host, and the group ends at zero.
     */
    @Test
    void multiHostReplicasUnderRestartPolicyNeverGoWholeAndNeverWithABusyHost() throws Exception {
        try (DemoRun run = ClosedLoops.start(Workload.shipped("multihost-never"), 5, "e2e-multihost-never")) {
            assertThat(run.awaitSettled()).as("settles: %s", run.simulator().happenings()).isTrue();
            ClosedLoops.assertHealthy(run);
            ClosedLoops.assertNoDecisionAppliedTwice(run.trail().actuations());

            List<GroupActuation> removals = run.trail().actuations().stream().filter(a -> a.outcome() == Outcome.APPLIED)
                    .flatMap(a -> a.groups().stream()).filter(group -> !group.workersToDelete().isEmpty()).toList();
            assertThat(removals).as("replicas were removed by drains").isNotEmpty()
                    .allSatisfy(group -> assertThat(group.workersToDelete().size()).as("whole replicas: %s", group).isEven()
                            .isEqualTo(2 * (group.replicasBefore() - group.replicasAfter())));
            assertThat(run.summary(true).completedTasks()).isEqualTo(7);
            assertThat(run.summary(true).finalWorkers()).isZero();
        }
    }

    /**
     * A RayJob's cluster: KubeRay's RayJob controller builds it once and, when the job ends, its DeleteWorkers policy
     * suspends every worker group (RayJobController, after rayjob_controller.go suspendWorkerGroups). Rayscale scaled the
     * job's work up, then leaves the suspended group alone: no decision changes it and no other writer is reported.
     */
    @Test
    void aRayJobsSuspendedGroupIsLeftAloneOnceTheJobEnds() throws Exception {
        try (DemoRun run = ClosedLoops.start(Workload.shipped("rayjob-delete-workers"), 20, "e2e-rayjob-delete-workers")) {
            assertThat(run.awaitSettled()).as("settles: %s", run.simulator().happenings()).isTrue();
            ClosedLoops.assertHealthy(run);
            ClosedLoops.assertNoDecisionAppliedTwice(run.trail().actuations());

            assertThat(run.simulator().happenings()).anyMatch(line -> line.contains("DeleteWorkers policy suspends every worker group"));
            assertThat(run.trail().decisions()).as("the job's work was scaled up for")
                    .anySatisfy(decision -> assertThat(decision.groups()).anyMatch(group -> group.targetReplicas() > group.currentReplicas()));
            assertThat(run.trail().decisions()).as("no decision changes the suspended group")
                    .noneMatch(decision -> decision.groups().stream().anyMatch(group -> group.targetReplicas() < group.currentReplicas()));
            assertThat(run.simulator().warningMessages("ReplicasChangedByAnotherWriter")).isEmpty();
            assertThat(run.summary(true).completedTasks()).isEqualTo(6);
            assertThat(run.summary(true).finalWorkers()).isZero();
        }
    }

    @Test
    void placementGroupsOfEveryStrategyGetTheRightNodeCount() throws Exception {
        try (DemoRun run = ClosedLoops.start(Workload.shipped("placement-groups"), 20, "e2e-placement-groups")) {
            assertThat(run.awaitSettled()).isTrue();
            List<ScaleDecision> decisions = run.trail().decisions();

            // STRICT_SPREAD (3 bundles) needs 3 nodes; STRICT_PACK merges to {CPU: 4}, a fourth;
            // PACK (3 x 1) and SPREAD (2 x 1) fit in what the first three leave.
            assertThat(target(decisions.get(0))).isEqualTo(4);
            assertThat(run.summary(true).peakWorkers()).isEqualTo(4);
            ClosedLoops.assertHealthy(run);
            ClosedLoops.assertAuditChainComplete(run);
        }
    }

    /**
     * The walk-through with a floor first: request_resources(num_cpus=8) scales the cluster to 8 before any task, on either
     * client path (facts D47, D48): a driver on the v1 path writes it to the GCS's KV only, one on the v2 path to the GCS
     * too; Rayscale reads the KV, which every call writes.
     */
    @ParameterizedTest(name = "a driver on the {0} client path")
    @EnumSource(value = ClientPath.class, names = {"V1", "V2"})
    void requestResourcesScalesToItsFloorOnEitherClientPath(ClientPath path) throws Exception {
        Workload workload = Workload.shipped("request-resources");
        List<Workload.Event> events = workload.events().stream().map(event -> event.requestResources() == null ? event
                : new Workload.Event(event.at(), null, null, new Workload.RequestResources(event.requestResources().numCpus(), List.of(), path),
                        null, null, null, null, null, null, null)).toList();
        Workload onPath = new Workload(workload.name(), workload.description(), workload.speed(), workload.cluster(), workload.nodePool(),
                workload.podStartSeconds(), workload.containerRestartSeconds(), workload.terminationSeconds(), workload.maxSeconds(), events,
                workload.gitOps(), workload.rayService(), workload.rayJob());
        try (DemoRun run = ClosedLoops.start(onPath, 20, "e2e-request-resources-" + path.name().toLowerCase(java.util.Locale.ROOT))) {
            assertThat(run.awaitSettled()).as("settles: work done, the floor cleared, back to 0").isTrue();
            List<ScaleDecision> decisions = run.trail().decisions();

            assertThat(target(decisions.get(0))).as("the floor, before any task").isEqualTo(8);
            assertThat(decisions.get(0).reasons()).anySatisfy(reason -> assertThat(reason).contains("for request_resources"));
            assertThat(run.summary(true).peakWorkers()).isEqualTo(15);
            assertThat(run.summary(true).finalWorkers()).isZero();
            ClosedLoops.assertHealthy(run);
            ClosedLoops.assertAuditChainComplete(run);
        }
    }

    private static int target(ScaleDecision decision) {
        return decision.groups().get(0).targetReplicas();
    }
}
