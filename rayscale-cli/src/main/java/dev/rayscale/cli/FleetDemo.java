package dev.rayscale.cli;

import dev.rayscale.demo.BrokerProcess;
import dev.rayscale.demo.Expectation;
import dev.rayscale.demo.FleetDemoRun;
import dev.rayscale.demo.FleetScenario;
import dev.rayscale.events.Support;
import dev.rayscale.sim.ClusterSimulator;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * {@code ./rayscale demo --scenario mixed-fleet}: one Rayscale serving clusters of several Ray and KubeRay generations at
 * once ({@link FleetDemoRun}), then a line per cluster — its versions as the collector found them, what Rayscale did, and
 * whether that is what the scenario expects — and the machine-readable last line.
 */
final class FleetDemo {

    private final PrintWriter out;
    private final Path root;
    private final Path work;

    FleetDemo(PrintWriter out, Path root, Path work) {
        this.out = out;
        this.root = root;
        this.work = work;
    }

    int run(FleetScenario asked, Double speed) throws Exception {
        FleetScenario scenario = speed == null ? asked : new FleetScenario(asked.name(), asked.description(), speed, asked.maxSeconds(),
                asked.members());
        out.println("starting a Kafka broker on 127.0.0.1:" + DemoCommand.KAFKA_PORT + " ...");
        out.flush();
        try (BrokerProcess kafka = BrokerProcess.start(root, work.resolve("kafka"), DemoCommand.KAFKA_PORT);
                FleetDemoRun run = FleetDemoRun.start(scenario, kafka.bootstrapServers(), root, work, line -> {
                    out.println(line);
                    out.flush();
                }, true)) {
            boolean done = run.awaitDone();
            List<FleetDemoRun.MemberReport> reports = run.reports();
            out.println();
            out.println(done ? "done: every cluster got what its versions and its owner's values allow" : "stopped at the scenario's time limit");
            out.println("cluster                       Ray (from)           KubeRay     support        peak final patches  as expected");
            for (FleetDemoRun.MemberReport report : reports) {
                out.println(String.format(Locale.ROOT, "%-29s %-20s %-11s %-14s %4d %5d %7d  %s", scenario.clusterName(report.member()),
                        report.versions() == null || report.versions().ray() == null ? "?"
                                : report.versions().ray() + " (" + report.versions().raySource() + ")",
                        report.versions() == null || report.versions().kubeRay() == null ? "?" : report.versions().kubeRay(),
                        report.versions() == null ? "?" : report.versions().support(), report.peakWorkers(), report.finalWorkers(),
                        report.patches(), report.asExpected() ? "yes" : "NO (expected " + report.member().expect() + ")"));
                if (report.versions() != null) {
                    report.versions().limits().forEach(limit -> out.println("    " + limit));
                }
                if (!report.warnings().isEmpty()) {
                    out.println("    Warning Events: " + String.join(", ", report.warnings()));
                }
            }
            ClusterSimulator.Invariants invariants = run.invariants();
            int[] twiceAndLost = run.appliedTwiceAndLost();
            List<String> errors = run.unexpectedErrors();
            if (!errors.isEmpty()) {
                out.println("UNEXPECTED ERROR lines in the services' logs (a healthy run has none):");
                errors.forEach(line -> out.println("  " + line));
            }
            boolean expected = reports.stream().allMatch(FleetDemoRun.MemberReport::asExpected);
            out.println(String.format(Locale.ROOT, "demo: clusters=%d unsupported=%d scale_up_only=%d held=%d as_expected=%d busy_deletions=%d "
                    + "gcs_crashes=%d operator_deletions=%d applied_twice=%d lost=%d dlq=%d forced_by_loss=%d", reports.size(),
                    count(reports, Support.UNSUPPORTED), count(reports, Support.SCALE_UP_ONLY),
                    reports.stream().filter(report -> report.member().expect() == Expectation.HELD && report.asExpected()).count(),
                    reports.stream().filter(FleetDemoRun.MemberReport::asExpected).count(), invariants.busyDeletions(), invariants.gcsCrashes(),
                    invariants.operatorDeletions(), twiceAndLost[0], twiceAndLost[1], run.deadLettered(), invariants.deletionsForcedByLoss()));
            out.flush();
            return done && expected && invariants.held() && twiceAndLost[0] == 0 && twiceAndLost[1] == 0 && errors.isEmpty() ? 0 : 1;
        }
    }

    private static long count(List<FleetDemoRun.MemberReport> reports, Support support) {
        return reports.stream().filter(report -> report.versions() != null && report.versions().support() == support).count();
    }
}
