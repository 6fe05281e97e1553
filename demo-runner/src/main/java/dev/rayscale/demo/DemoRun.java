package dev.rayscale.demo;

import dev.rayscale.audit.Digest;
import dev.rayscale.events.ActuationResult;
import dev.rayscale.events.Outcome;
import dev.rayscale.events.ScaleDecision;
import dev.rayscale.sim.ClientPath;
import dev.rayscale.sim.ClusterSimulator;
import dev.rayscale.sim.RayStatus;
import dev.rayscale.sim.Sample;
import dev.rayscale.sim.Workload;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.stream.Collectors;

/**
 * One closed-loop run: a simulated cluster, Rayscale's three services as processes over a real Kafka
 * broker, a workload played on the simulated clock, and a running account of what happens — the
 * timeline, every decision and its actuation — until the cluster settles.
 */
public final class DemoRun implements AutoCloseable {

    private final Workload workload;
    private final double speed;
    private final ClusterSimulator simulator;
    private final RayscaleServices services;
    private final AuditTrail trail;
    private final Path logs;
    private final Consumer<String> out;
    private final Thread progress;
    private final boolean verbose;
    private final FaultInjector faults;
    /** Simulated seconds after which {@link #awaitSettled()} gives up: the workload's limit, plus time for each fault. */
    private final double timeLimit;
    /** What {@code ray status} printed when each decision arrived, by decision id. */
    private final Map<String, String> rayStatus = new ConcurrentHashMap<>();
    private volatile Instant began;
    private volatile boolean closing;
    private volatile boolean stopRequested;

    /**
     * How a run is made beyond its workload.
     *
     * @param verbose print {@code ray status} with each decision
     * @param faults the faults to inject
     * @param broker the run's own broker, which {@code broker-restart} kills and resumes; null if the run shares one
     * @param plannerOptions the planner's settings as JVM system properties ({@code -Drayscale.planner.packing=economical})
     */
    public record Options(boolean verbose, List<Fault> faults, BrokerProcess broker, List<String> plannerOptions) {

        public Options(boolean verbose, List<Fault> faults, BrokerProcess broker) {
            this(verbose, faults, broker, List.of());
        }

        public static Options plain() {
            return new Options(false, List.of(), null);
        }
    }

    private DemoRun(Workload workload, double speed, String clusterName, String bootstrapServers, Path root, Path workDir,
            Consumer<String> out, Options options) {
        this.workload = workload;
        this.speed = speed;
        this.out = out;
        this.verbose = options.verbose();
        Topics.create(bootstrapServers);
        this.simulator = ClusterSimulator.start(workload, clusterName, speed);
        this.logs = workDir.resolve("logs");
        this.services = new RayscaleServices(root, logs, bootstrapServers, simulator.apiServerUrl(), clusterName, options.broker() != null);
        this.trail = new AuditTrail(bootstrapServers, simulator.clusterId(), this::printDecision, this::printActuation);
        this.progress = new Thread(this::printProgress, "demo-progress");
        progress.setDaemon(true);
        this.faults = new FaultInjector(options.faults(), simulator, services, trail, options.broker(), bootstrapServers, out,
                simulator::seconds);
        // A fault costs wall-clock time (a broker resuming, a member's session expiring) while the simulated clock runs on.
        this.timeLimit = workload.maxSeconds() + options.faults().stream()
                .mapToDouble(fault -> FaultInjector.ALLOWANCE.plus(fault.brokerDowntime()).toMillis() / 1000.0 * speed).sum();
    }

    /** Starts everything and the workload's clock; returns once the services are ready. */
    public static DemoRun start(Workload workload, double speed, String clusterName, String bootstrapServers, Path root, Path workDir,
            Consumer<String> out) {
        return start(workload, speed, clusterName, bootstrapServers, root, workDir, out, Options.plain());
    }

    /** As {@link #start(Workload, double, String, String, Path, Path, Consumer)}, verbose or with faults. */
    public static DemoRun start(Workload workload, double speed, String clusterName, String bootstrapServers, Path root, Path workDir,
            Consumer<String> out, Options options) {
        DemoRun run = new DemoRun(workload, speed, clusterName, bootstrapServers, root, workDir, out, options);
        try {
            out.accept("starting demand-collector, scaling-planner and k8s-actuator (logs in " + workDir.resolve("logs") + ")");
            run.services.startAll(Map.of(RayscaleServices.Service.PLANNER, options.plannerOptions()));
            Topics.awaitAssigned(bootstrapServers, run.services.groupTopics(), Duration.ofSeconds(60));
            run.awaitGcs(Duration.ofSeconds(30));
            run.began = Instant.now();
            run.simulator.begin();
            out.accept(String.format(Locale.ROOT, "workload %s started at %.0fx speed: %s", workload.name(), speed,
                    workload.description() == null ? "" : workload.description().trim()));
            run.progress.start();
            run.faults.start();
            return run;
        } catch (RuntimeException e) {
            run.close();
            throw e;
        }
    }

    /** The workload starts on a running Ray cluster: the operator has created the head and its GCS answers. */
    private void awaitGcs(Duration within) {
        long deadline = System.nanoTime() + within.toNanos();
        while (!simulator.gcsUp()) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("the simulated head did not start within " + within);
            }
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for the simulated head", e);
            }
        }
    }

    /** Ends {@link #awaitSettled()} early (Ctrl-C). */
    public void requestStop() {
        stopRequested = true;
    }

    /**
     * Waits until the cluster has settled (work done, back to minReplicas, every injected fault struck and
     * caught up with), the workload's time (and each fault's allowance) is up, or a stop is requested.
     */
    public boolean awaitSettled() {
        int settledChecks = 0;
        while (simulator.seconds() <= timeLimit && !stopRequested) {
            settledChecks = simulator.settled() && faults.allCaughtUp() ? settledChecks + 1 : 0;
            if (settledChecks >= 5) {
                return true;
            }
            try {
                Thread.sleep(200);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
        return false;
    }

    /** The run's figures; first waits a little for results still on their way, so that a slow one does not read as lost. */
    public Summary summary(boolean settled) {
        awaitTrailComplete(Duration.ofSeconds(15));
        double firstPatch = trail.actuations().stream().filter(a -> a.outcome() == Outcome.APPLIED && !a.dryRun())
                .mapToDouble(a -> simSeconds(a.completedAt())).min().orElse(Double.NaN);
        return Summary.of(workload, simulator.samples(), simulator.rayStats(), simulator.invariants(), trail.decisions(), trail.actuations(),
                trail.deadLetters(), simulator.firstDemandAt(), firstPatch, settled, faults.reports(), faults.poisonNotDeadLettered());
    }

    /** For a workload with a GitOps tool, how Rayscale stood with it; null otherwise. */
    public OtherWriterReport otherWriter() {
        if (workload.gitOps() == null) {
            return null;
        }
        return OtherWriterReport.of(workload.gitOps().manager(), simulator.gitOpsWrites(), simulator.gitOpsFirstWrite(),
                simulator.warningMessages(OtherWriterReport.EVENT_REASON), trail.actuations());
    }

    /** Until every decision has a result and every poison record is set aside, or {@code within} is up. */
    private void awaitTrailComplete(Duration within) {
        long deadline = System.nanoTime() + within.toNanos();
        while (System.nanoTime() < deadline && !stopRequested) {
            Set<String> answered = trail.actuations().stream().map(ActuationResult::decisionId).collect(Collectors.toSet());
            if (answered.containsAll(trail.decisions().stream().map(ScaleDecision::id).toList()) && faults.poisonNotDeadLettered() == 0) {
                return;
            }
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    public Path writeReport(Path file, Summary summary) {
        try {
            Files.createDirectories(file.toAbsolutePath().getParent());
            Files.writeString(file, HtmlReport.render(workload.name(), workload.description(), simulator.samples(), summary,
                    trail.decisions(), trail.actuations(), rayStatus, simulator.happenings(), speed,
                    epochSeconds -> (epochSeconds - began.toEpochMilli() / 1000.0) * speed));
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the report " + file, e);
        }
    }

    /** ERROR lines the services logged that the allow-list does not expect: a healthy run has none. */
    public List<String> unexpectedErrors() {
        return ServiceLogs.unexpectedErrors(logs);
    }

    /** What {@code ray status} printed in the cluster as each decision arrived. */
    public Collection<String> rayStatusSeen() {
        return List.copyOf(rayStatus.values());
    }

    public RayscaleServices services() {
        return services;
    }

    public ClusterSimulator simulator() {
        return simulator;
    }

    public AuditTrail trail() {
        return trail;
    }

    public List<Sample> samples() {
        return simulator.samples();
    }

    /**
     * Simulated seconds since the workload started, for an instant on the real clock; 0 before it started (a cluster whose
     * first state already calls for a decision, such as more replicas than its work needs, gets one before).
     */
    public double simSeconds(Instant instant) {
        Instant start = began;
        return start == null ? 0 : Duration.between(start, instant).toMillis() / 1000.0 * speed;
    }

    /**
     * Prints the decision and, verbose, what {@code ray status} shows in the cluster as it arrives, as each kind of client
     * sees it (docs/ray-versions.md): one that reads Ray's client switch now (the v2 path once Rayscale has set it: what
     * Rayscale reported to the GCS), and one that decided on the v1 path before (the head's read-only monitor's view).
     */
    private void printDecision(ScaleDecision decision) {
        String status = rayStatus(ClientPath.FRESH);
        rayStatus.put(decision.id(), status);
        out.accept(String.format(Locale.ROOT, "[%5.0fs] decision %s: %s — %s", simSeconds(decision.decidedAt()),
                decision.id().substring(0, 8), Digest.targets(decision), String.join("; ", decision.reasons())));
        if (verbose) {
            out.accept("          | ray status, a client reading Ray's client switch now:");
            status.lines().forEach(line -> out.accept("          | " + line));
            out.accept("          | ray status, a client that took the v1 path before the switch was set:");
            rayStatus(ClientPath.V1).lines().forEach(line -> out.accept("          | " + line));
        }
    }

    /** What ray status prints for a client on {@code path}; what Ray prints when it fails, if it does. */
    private String rayStatus(ClientPath path) {
        try {
            return simulator.rayStatus(path);
        } catch (RayStatus.Failed failed) {
            return "Traceback (most recent call last):\n  ...\n" + failed.getMessage();
        }
    }

    private void printActuation(ActuationResult result) {
        out.accept(String.format(Locale.ROOT, "[%5.0fs] actuation of %s: %s — %s", simSeconds(result.completedAt()),
                result.decisionId().substring(0, 8), result.outcome(), result.reason()));
    }

    private void printProgress() {
        double lastPrinted = -1;
        int happeningsPrinted = 0;
        while (!closing) {
            List<String> happenings = simulator.happenings();
            for (; happeningsPrinted < happenings.size(); happeningsPrinted++) {
                out.accept(happenings.get(happeningsPrinted).replaceFirst("\\] ", "] !! "));
            }
            List<Sample> samples = simulator.samples();
            if (!samples.isEmpty()) {
                Sample now = samples.get(samples.size() - 1);
                if (now.seconds() - lastPrinted >= 10) {
                    lastPrinted = now.seconds();
                    out.accept(String.format(Locale.ROOT, "[%5.0fs] tasks %d pending, %d running, %d done | worker pods %d (%d waiting) | Ray workers %d (%d busy)",
                            now.seconds(), now.pendingTasks(), now.runningTasks(), simulator.rayStats().completedTasks(),
                            now.workerPods(), now.waitingPods(), now.registeredWorkers(), now.busyWorkers()));
                }
            }
            try {
                Thread.sleep(250);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    /** The simulated cluster's id, {@code namespace/name}: the key of its events. */
    public String clusterId() {
        return simulator.clusterId();
    }

    @Override
    public void close() {
        closing = true;
        progress.interrupt();
        faults.close();
        trail.close();
        services.close();
        simulator.close();
    }
}
