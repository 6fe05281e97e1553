package dev.rayscale.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.rayscale.demo.DemoRun;
import dev.rayscale.demo.FleetDemoRun;
import dev.rayscale.demo.FleetScenario;
import dev.rayscale.demo.Summary;
import dev.rayscale.events.ActuationResult;
import dev.rayscale.events.Outcome;
import dev.rayscale.events.ScaleDecision;
import dev.rayscale.sim.Workload;
import dev.rayscale.testsupport.TestKafka;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;

/** Starting closed-loop runs, and what every run must show. */
final class ClosedLoops {

    static final Path ROOT = Path.of(System.getProperty("rayscale.home", "..")).toAbsolutePath().normalize();

    private ClosedLoops() {
    }

    /** A run on the test broker, its cluster named uniquely so that other runs' records on the broker are not read as its own. */
    static DemoRun start(Workload workload, double speed, String cluster) throws Exception {
        return start(workload, speed, cluster, TestKafka.bootstrapServers(), DemoRun.Options.plain());
    }

    static DemoRun start(Workload workload, double speed, String cluster, String bootstrapServers, DemoRun.Options options)
            throws Exception {
        String unique = cluster + "-" + runSuffix();
        return DemoRun.start(workload, speed, unique, bootstrapServers, ROOT, Files.createTempDirectory("rayscale-e2e"),
                System.out::println, options);
    }

    /**
     * A shipped fleet scenario on the test broker at 20x, named uniquely as {@link #start(Workload, double, String)} names a
     * cluster: one Rayscale serving all its members.
     */
    static FleetDemoRun startFleet(String shipped) throws Exception {
        FleetScenario scenario = FleetScenario.shipped(shipped);
        FleetScenario unique = new FleetScenario(scenario.name() + "-" + runSuffix(),
                scenario.description(), 20, scenario.maxSeconds(), scenario.members());
        return FleetDemoRun.start(unique, TestKafka.bootstrapServers(), ROOT, Files.createTempDirectory("rayscale-e2e"),
                System.out::println, false);
    }

    /** Six random hex digits: 16 million names, so that a broker kept between runs does not meet one again. */
    private static String runSuffix() {
        return UUID.randomUUID().toString().substring(0, 6);
    }

    /** What every fleet run must show: no invariant broken, nothing applied twice or lost, no ERROR line. */
    static void assertHealthy(FleetDemoRun run) {
        assertThat(run.invariants().held()).as("busy deletions, GCS crashes, operator deletions: %s", run.invariants()).isTrue();
        assertThat(run.appliedTwiceAndLost()).containsExactly(0, 0);
        assertThat(run.unexpectedErrors()).as("no ERROR line, no restart").isEmpty();
    }

    /** Every actuation names a decision that was published, and every decision a snapshot that was. */
    static void assertAuditChainComplete(DemoRun run) {
        await().atMost(Duration.ofSeconds(10)).until(() -> run.trail().actuations().size() >= run.trail().decisions().size());
        Set<String> snapshots = new HashSet<>(run.trail().snapshotIds());
        Set<String> decisions = run.trail().decisions().stream().map(ScaleDecision::id).collect(Collectors.toSet());
        assertThat(run.trail().decisions()).allSatisfy(decision -> assertThat(snapshots).contains(decision.snapshotId()));
        assertThat(run.trail().actuations()).allSatisfy(result -> {
            assertThat(decisions).contains(result.decisionId());
            assertThat(snapshots).contains(result.snapshotId());
        });
        assertThat(run.trail().actuations().stream().map(ActuationResult::decisionId).collect(Collectors.toSet()))
                .as("every decision got a result").containsAll(decisions);
    }

    /** Every closed-loop run: no pod deleted while it ran work, no GCS crashed, no pod chosen by the operator, no unexpected ERROR. */
    static void assertHealthy(DemoRun run) {
        Summary summary = run.summary(true);
        List<String> happenings = run.simulator().happenings();
        assertThat(summary.busyDeletions()).as("pods deleted, by anyone, while they ran work; the run: %s", happenings).isZero();
        assertThat(summary.gcsCrashes()).as("GCS processes a Rayscale read made exit; the run: %s", happenings).isZero();
        assertThat(summary.operatorDeletions()).as("pods the operator deleted by its own choice; the run: %s", happenings).isZero();
        assertThat(run.unexpectedErrors()).as("ERROR lines the services logged, not on the allow-list").isEmpty();
    }

    static void assertNoDecisionAppliedTwice(List<ActuationResult> actuations) {
        List<String> applied = actuations.stream().filter(a -> a.outcome() == Outcome.APPLIED).map(ActuationResult::decisionId).toList();
        assertThat(applied).doesNotHaveDuplicates();
    }

}
