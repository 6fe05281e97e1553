package dev.rayscale.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rayscale.demo.AuditTrail;
import dev.rayscale.demo.BrokerProcess;
import dev.rayscale.demo.DemoRun;
import dev.rayscale.demo.Fault;
import dev.rayscale.demo.FaultReport;
import dev.rayscale.demo.FreePorts;
import dev.rayscale.demo.Poison;
import dev.rayscale.demo.Summary;
import dev.rayscale.sim.Workload;
import dev.rayscale.testsupport.TestKafka;
import java.nio.file.Files;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The walk-through under each fault Rayscale must survive, and under all of them at once, on the
 * faithful simulator and a real broker: the cluster ends back at zero workers, no pod was deleted while
 * busy, no decision was applied twice or left without a result, every poison record was set aside with
 * a reason, the loop caught up after every fault, and no service logged an unexpected ERROR.
 */
class FaultsTest {

    /** Each fault, the three kills in one run (a service each, at its own moment), and all of them at once (but the long broker outage). */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"poison", "broker-restart", "broker-outage", "kill=collector kill=planner kill=actuator", "api-faults", "gcs-outage",
            "gcs-hang", "rebalance", "all"})
    void theWalkthroughSurvives(String spec) throws Exception {
        List<Fault> faults = Arrays.stream(spec.split(" ")).flatMap(one -> Fault.parse(one).stream()).toList();
        boolean restartsTheBroker = faults.stream().anyMatch(Fault::stopsTheBroker);
        // A broker this test may kill is its own; the others share the test broker.
        try (BrokerProcess broker = restartsTheBroker ? BrokerProcess.start(ClosedLoops.ROOT, Files.createTempDirectory("rayscale-broker"),
                FreePorts.firstOf(2)) : null;
                DemoRun run = ClosedLoops.start(Workload.shipped("walkthrough"), 20, "e2e-" + spec.split("[= ]")[0],
                        broker != null ? broker.bootstrapServers() : TestKafka.bootstrapServers(), new DemoRun.Options(false, faults, broker))) {
            boolean settled = run.awaitSettled();
            Summary summary = run.summary(settled);
            assertThat(settled).as("settles: work done, back to minReplicas, every fault caught up with; " + summary.line() + " "
                    + summary.faults()).isTrue();

            assertThat(summary.finalWorkers()).isZero();
            assertThat(summary.completedTasks()).isEqualTo(15);
            assertThat(summary.appliedTwice()).as("decisions applied twice").isZero();
            assertThat(summary.lost()).as("decisions without a result").isZero();
            assertThat(summary.faults()).hasSize(faults.size()).allSatisfy(report -> {
                assertThat(report.struck()).as(report.fault() + " struck").isTrue();
                assertThat(report.recovered()).as(report.fault() + " caught up with").isTrue();
            });
            ClosedLoops.assertHealthy(run);
            ClosedLoops.assertAuditChainComplete(run);
            if (faults.stream().anyMatch(fault -> fault.kind() == Fault.Kind.POISON)) {
                assertThat(summary.poisonNotDeadLettered()).as("poison records not dead-lettered").isZero();
                Map<String, Integer> twicePerKind = Arrays.stream(Poison.Kind.values()).collect(Collectors.toMap(kind -> kind.label, kind -> 2 * kind.count()));
                assertThat(summary.deadLettered()).as("every poison record, by kind, from both input topics").isEqualTo(twicePerKind);
                assertThat(run.trail().deadLetters()).extracting(AuditTrail.DeadLetter::reason).allSatisfy(reason -> assertThat(reason).isNotBlank());
            }
            System.out.println(spec + ": " + summary.line() + " decisions=" + summary.decisions() + " outcomes=" + summary.outcomes() + " "
                    + summary.faults().stream().map(FaultReport::toString).toList());
        }
    }
}
