package dev.rayscale.cli;

import dev.rayscale.audit.Exporter;
import dev.rayscale.audit.KafkaRecords;
import dev.rayscale.audit.RecordSource;
import dev.rayscale.audit.Selection;
import dev.rayscale.demo.BrokerProcess;
import dev.rayscale.demo.DemoRun;
import dev.rayscale.demo.Fault;
import dev.rayscale.demo.FaultReport;
import dev.rayscale.demo.FleetScenario;
import dev.rayscale.demo.OtherWriterReport;
import dev.rayscale.demo.Summary;
import dev.rayscale.sim.KubeRayRelease;
import dev.rayscale.sim.RayRelease;
import dev.rayscale.sim.Workload;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;
import org.apache.kafka.clients.CommonClientConfigs;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code ./rayscale demo}: Rayscale end to end on a simulated cluster, with a real Kafka broker. */
@Command(name = "demo", mixinStandardHelpOptions = true,
        description = {"Runs Rayscale end to end on a simulated Ray cluster: starts a real Kafka broker, an embedded Kubernetes API "
                + "server with a simulated KubeRay operator and Ray cluster, and the three services; plays a workload; prints the "
                + "timeline and every decision; writes an HTML report. The last line is machine-readable:",
            "  demo: peak_workers=N final_workers=M busy_deletions=K time_to_capacity_s=T gcs_crashes=C operator_deletions=D "
                + "applied_twice=A lost=L dlq=Q forced_by_loss=F",
            "Exit status 0 only if the cluster settled and no invariant broke: no pod deleted while running work (by anyone; the",
            "operator's deletions forced by a named pod lost after Rayscale's last read are told apart, as forced_by_loss),",
            "no GCS crashed by a client, no pod deleted by the operator's own choice, no decision applied twice or left",
            "without a result, every poison record dead-lettered, every injected fault caught up with, no unexpected ERROR.",
            "Shipped workloads: walkthrough (default), burst, placement-groups, gpu-mix, node-pool-wait, head-restart, "
                + "raylet-restart, quota, eviction-churn, suspend, request-resources, gitops-reapply, invalid-spec, rayservice-upgrade, multihost-never, rayjob-delete-workers; and mixed-fleet, one Rayscale serving clusters "
                + "of several Ray and KubeRay generations (its last line adds clusters=, unsupported= and scale_up_only=), and "
                + "hostile-tenant, one Rayscale shared by two ordinary teams and a hostile one, held (held=)."})
public class DemoCommand implements Callable<Integer> {

    /** The demo's own broker port, apart from a test broker's (19092). */
    static final int KAFKA_PORT = 19192;

    @Option(names = "--scenario", paramLabel = "FILE|NAME", defaultValue = "walkthrough",
            description = "A workload file (YAML/JSON), or the name of a shipped workload. Default: ${DEFAULT-VALUE}.")
    String scenario;

    @Option(names = "--speed", paramLabel = "X", description = "Simulated seconds per real second (default: the workload's).")
    Double speed;

    @Option(names = "--ray-version", paramLabel = "V", description = {"The Ray the simulated cluster runs (default: "
            + RayRelease.CURRENT + "); each release behaves as docs/ray-versions.md says, e.g. 2.5.1 (no autoscaler state service), "
            + "2.8.1 (draft drain reasons), 2.44.0 (no node labels)."})
    String rayVersion;

    @Option(names = "--kuberay-version", paramLabel = "K", description = {"The KubeRay that makes the simulated cluster's pods (default: "
            + KubeRayRelease.CURRENT + "), e.g. 1.0.0 (no RAY_CLOUD_INSTANCE_ID), 1.5.1 (no multi-host replica names)."})
    String kubeRayVersion;

    @Option(names = "--report", paramLabel = "FILE", description = "Where to write the HTML report. Default: .rayscale/demo/<workload>.html")
    Path report;

    @Option(names = "--verbose", description = "Also print what `ray status` shows in the cluster when each decision arrives.")
    boolean verbose;

    @Option(names = "--fault", paramLabel = "NAME[=ARG]", description = {"Injects a fault (repeatable): poison, broker-restart[=S] (seconds down, default 5), broker-outage[=S] (the broker "
            + "killed while the actuator patches, down S seconds, default 90), "
            + "kill=collector|planner|actuator, api-faults[=P] (default 0.3), gcs-outage[=S], gcs-hang[=S] (simulated seconds, "
            + "default 60), rebalance; or all of them but broker-outage: all."})
    List<String> faultSpecs = new ArrayList<>();

    @Option(names = "--set", paramLabel = "KEY=VALUE", description = {"Runs the closed loop under a changed policy (repeatable), named "
            + "as ./rayscale what-if names it: " + DemoSettings.KNOWN + "."})
    List<String> settings = new ArrayList<>();

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        Path root = Home.root();
        Path work = Home.work("demo");
        boolean fromFile = scenario.contains("/") || scenario.endsWith(".yaml") || scenario.endsWith(".json");
        if (!fromFile && FleetScenario.isFleet(scenario)) {
            if (rayVersion != null || kubeRayVersion != null || !faultSpecs.isEmpty() || !settings.isEmpty() || verbose) {
                throw new picocli.CommandLine.ParameterException(spec.commandLine(), "the fleet scenario " + scenario
                        + " sets each cluster's versions itself, and takes only --speed: --ray-version, --kuberay-version, "
                        + "--fault, --set and --verbose are for one cluster's workloads");
            }
            return new FleetDemo(out, root, work).run(FleetScenario.shipped(scenario), speed);
        }
        DemoSettings.Applied applied;
        Workload workload;
        try {
            applied = DemoSettings.apply(fromFile ? Workload.read(Path.of(scenario)) : Workload.shipped(scenario), settings);
            workload = withVersions(applied.workload());
        } catch (IllegalArgumentException bad) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(), bad.getMessage());
        }
        double pace = speed != null ? speed : workload.speed();
        List<Fault> faults = faultSpecs.stream().flatMap(spec -> Fault.parse(spec).stream()).toList();
        AtomicBoolean stopped = new AtomicBoolean();
        out.println("starting a Kafka broker on 127.0.0.1:" + KAFKA_PORT + " ...");
        out.flush();
        BrokerProcess kafka = BrokerProcess.start(root, work.resolve("kafka"), KAFKA_PORT);
        String bootstrap = kafka.bootstrapServers();
        DemoRun[] run = new DemoRun[1];
        AtomicBoolean interrupted = new AtomicBoolean();
        // Ctrl-C ends the run early but cleanly: everything this command started is stopped.
        Thread cleanup = new Thread(() -> {
            interrupted.set(true);
            if (run[0] != null) {
                run[0].requestStop();
            }
            stopEverything(run, kafka, stopped);
        }, "demo-cleanup");
        Runtime.getRuntime().addShutdownHook(cleanup);
        try {
            run[0] = DemoRun.start(workload, pace, "raycluster-" + workload.name(), bootstrap, root, work, line -> {
                out.println(line);
                out.flush();
            }, new DemoRun.Options(verbose, faults, kafka, applied.plannerOptions()));
            boolean settled = run[0].awaitSettled();
            Summary summary = run[0].summary(settled);
            Path file = report != null ? report : work.resolve(workload.name() + ".html");
            run[0].writeReport(file, summary);
            Path recording = work.resolve(workload.name() + ".events.jsonl");
            long events = record(bootstrap, run[0].clusterId(), recording);
            out.println();
            out.println(settled ? "settled: all work done, back to minReplicas"
                    : interrupted.get() ? "interrupted before settling" : "stopped at the workload's time limit before settling");
            out.println(String.format(Locale.ROOT, "demand to first patch %.1f s; to full capacity %.1f s (simulated)",
                    summary.timeToFirstPatchSeconds(), summary.timeToCapacitySeconds()));
            out.println(String.format(Locale.ROOT, "worker-seconds %.0f for %.0f of work; %d decision(s), %d patch(es); drains %d accepted, %d refused; %d task(s) done; %d infeasible",
                    summary.workerSeconds(), summary.idealWorkerSeconds(), summary.decisions(), summary.patches(), summary.drainsAccepted(),
                    summary.drainsRejected(), summary.completedTasks(), summary.infeasible()));
            out.println("report: " + file.toAbsolutePath());
            out.println("recording: " + recording.toAbsolutePath() + " (" + events + " records; ./rayscale audit --file " + recording
                    + ", ./rayscale replay --verify --file " + recording + ")");
            printOutcomes(out, summary);
            if (!summary.invariantsHeld()) {
                out.println("INVARIANT BROKEN: see busy_deletions, gcs_crashes and operator_deletions below");
            }
            List<String> errors = run[0].unexpectedErrors();
            if (!errors.isEmpty()) {
                out.println("UNEXPECTED ERROR lines in the services' logs (a healthy run has none):");
                errors.forEach(line -> out.println("  " + line));
            }
            OtherWriterReport otherWriter = run[0].otherWriter();
            if (otherWriter != null) {
                out.println(String.format(Locale.ROOT, "another writer: %s synced its manifest over Rayscale's values %d time(s); Rayscale "
                        + "patched %d time(s) in the contest, then held %d decision(s) (REJECTED, OTHER_WRITER)", otherWriter.manager(),
                        otherWriter.syncs(), otherWriter.contestedPatches(), otherWriter.held()));
                otherWriter.warnings().forEach(message -> out.println("  Warning ReplicasChangedByAnotherWriter: " + message));
            }
            run[0].simulator().warningMessages("SpecNotReconciled")
                    .forEach(message -> out.println("Warning SpecNotReconciled (decisions frozen meanwhile): " + message));
            out.println(summary.line() + (otherWriter == null ? "" : otherWriter.keys()));
            out.flush();
            return interrupted.get() ? 130 : settled && summary.invariantsHeld() && summary.faultsSurvived() && errors.isEmpty() ? 0 : 1;
        } finally {
            stopEverything(run, kafka, stopped);
            try {
                Runtime.getRuntime().removeShutdownHook(cleanup);
            } catch (IllegalStateException shuttingDown) {
                // already running
            }
        }
    }

    /** The workload on the Ray and KubeRay asked for; each version is checked here, so that a typo fails before anything starts. */
    private Workload withVersions(Workload workload) {
        if (rayVersion == null && kubeRayVersion == null) {
            return workload;
        }
        Workload.Versions asked = new Workload.Versions(rayVersion != null ? rayVersion : workload.cluster().versions().ray(),
                kubeRayVersion != null ? kubeRayVersion : workload.cluster().versions().kubeRay(), workload.cluster().versions().rayVersionInSpec());
        asked.rayRelease();
        asked.kubeRayRelease();
        return workload.withCluster(workload.cluster().withVersions(asked));
    }

    /** Exports the run's records, as {@code ./rayscale export} would, to an archive every other command reads. */
    private static long record(String bootstrap, String clusterId, Path recording) throws IOException {
        Properties client = new Properties();
        client.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        try (RecordSource source = new KafkaRecords(client, new Selection(Set.of(clusterId), null, null));
                Exporter exporter = new Exporter(recording)) {
            source.forEach(exporter::write);
            return exporter.written();
        }
    }

    private static void printOutcomes(PrintWriter out, Summary summary) {
        out.println("results by outcome: " + (summary.outcomes().isEmpty() ? "none" : summary.outcomes().entrySet().stream()
                .map(e -> e.getKey() + " " + e.getValue()).collect(Collectors.joining(", ")))
                + String.format(Locale.ROOT, "; applied twice %d; lost %d", summary.appliedTwice(), summary.lost()));
        if (!summary.deadLettered().isEmpty()) {
            out.println("dead-lettered " + summary.deadLetteredTotal() + ": " + summary.deadLettered().entrySet().stream()
                    .map(e -> e.getKey() + " " + e.getValue()).collect(Collectors.joining(", "))
                    + (summary.poisonNotDeadLettered() > 0 ? "; POISON NOT DEAD-LETTERED: " + summary.poisonNotDeadLettered() : ""));
        }
        if (!summary.faults().isEmpty()) {
            out.println("fault                  struck at   lasted   caught up after   what");
            for (FaultReport fault : summary.faults()) {
                out.println(String.format(Locale.ROOT, "%-22s %8s %8s %17s   %s", fault.fault(), seconds(fault.injectedAt(), "s"),
                        seconds(fault.lastedSeconds(), " s"), fault.recovered() ? seconds(fault.recoverySeconds(), " s") : "NOT CAUGHT UP",
                        fault.detail()));
            }
        }
    }

    private static String seconds(double value, String unit) {
        return Double.isNaN(value) ? "-" : String.format(Locale.ROOT, "%.1f%s", value, unit);
    }

    private static void stopEverything(DemoRun[] run, BrokerProcess kafka, AtomicBoolean stopped) {
        if (!stopped.compareAndSet(false, true)) {
            return;
        }
        if (run[0] != null) {
            run[0].close();
        }
        kafka.close();
    }
}
