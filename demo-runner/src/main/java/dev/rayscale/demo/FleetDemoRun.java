package dev.rayscale.demo;

import dev.rayscale.audit.Digest;
import dev.rayscale.events.ActuationResult;
import dev.rayscale.events.ClusterVersions;
import dev.rayscale.events.Outcome;
import dev.rayscale.events.ScaleDecision;
import dev.rayscale.events.Support;
import dev.rayscale.sim.ClusterSimulator;
import dev.rayscale.sim.Fleet;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.stream.Collectors;

/**
 * One Rayscale serving a {@link FleetScenario}: its members' simulated clusters in one Kubernetes API ({@link Fleet}), each
 * of its own Ray and KubeRay, Rayscale's three services as processes over a real Kafka broker, and each member's events read
 * back from the topics. The run ends when every member has done what it is expected to ({@link #awaitDone()}).
 */
public final class FleetDemoRun implements AutoCloseable {

    /** Warning Events that say a cluster is left alone. */
    static final Set<String> UNSUPPORTED_WARNINGS = Set.of("RayVersionUnsupported", "KubeRayVersionUnsupported");
    /** Warning Events that say what an owner wrote is refused, and the cluster held. */
    static final Set<String> HELD_WARNINGS = Set.of("InvalidRayClusterForRayscale", "GcsSettingRefused");
    private static final Duration TICK = Duration.ofMillis(100);

    private final FleetScenario scenario;
    private final Fleet fleet;
    private final RayscaleServices services;
    private final Map<FleetScenario.Member, AuditTrail> trails = new LinkedHashMap<>();
    private final Map<FleetScenario.Member, Integer> peaks = new LinkedHashMap<>();
    private final Path logs;
    private final Consumer<String> out;

    private FleetDemoRun(FleetScenario scenario, String bootstrapServers, Path root, Path workDir, Consumer<String> out, boolean ownBroker) {
        this.scenario = scenario;
        this.out = out;
        Topics.create(bootstrapServers);
        this.fleet = Fleet.demo(scenario.workloads(), TICK, 2, scenario.speed());
        this.logs = workDir.resolve("logs");
        this.services = new RayscaleServices(root, logs, bootstrapServers, fleet.apiServerUrl(), scenario.name(), ownBroker);
        for (FleetScenario.Member member : scenario.members()) {
            String cluster = scenario.clusterName(member);
            trails.put(member, new AuditTrail(bootstrapServers, ClusterSimulator.NAMESPACE + "/" + cluster,
                    decision -> printDecision(cluster, decision), result -> printActuation(cluster, result)));
            peaks.put(member, 0);
        }
    }

    /** Starts everything and every member's workload; returns once the services are ready. */
    public static FleetDemoRun start(FleetScenario scenario, String bootstrapServers, Path root, Path workDir, Consumer<String> out,
            boolean ownBroker) {
        FleetDemoRun run = new FleetDemoRun(scenario, bootstrapServers, root, workDir, out, ownBroker);
        try {
            out.accept("starting demand-collector, scaling-planner and k8s-actuator (logs in " + run.logs + ")");
            run.services.startAll();
            Topics.awaitAssigned(bootstrapServers, run.services.groupTopics(), Duration.ofSeconds(60));
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (!run.fleet.gcsUp() && System.nanoTime() < deadline) {
                Thread.sleep(50);
            }
            run.fleet.begin();
            out.accept(String.format(Locale.ROOT, "scenario %s started at %.0fx speed: %s", scenario.name(), scenario.speed(),
                    scenario.description() == null ? "" : scenario.description().trim()));
            scenario.members().forEach(member -> out.accept(String.format(Locale.ROOT, "  %-28s Ray %-7s KubeRay %-6s plays %-16s expected %s",
                    scenario.clusterName(member), member.versions().ray(), member.versions().kubeRay(), member.workload(), member.expect())));
            return run;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            run.close();
            throw new IllegalStateException("interrupted while starting", e);
        } catch (RuntimeException e) {
            run.close();
            throw e;
        }
    }

    /**
     * Waits until every member has done what it is expected to, five checks in a row, or the scenario's time is up:
     * FULL settled back to minReplicas, SCALE_UP_ONLY's work done, UNSUPPORTED and HELD told by a Warning Event. False if time
     * ran out.
     */
    public boolean awaitDone() throws InterruptedException {
        int done = 0;
        while (fleet.clusters().get(0).seconds() <= scenario.maxSeconds()) {
            trails.keySet().forEach(member -> peaks.merge(member, cluster(member).rayStats().registeredWorkers(), Math::max));
            done = scenario.members().stream().allMatch(this::done) ? done + 1 : 0;
            if (done >= 5) {
                return true;
            }
            Thread.sleep(200);
        }
        return false;
    }

    private boolean done(FleetScenario.Member member) {
        ClusterSimulator cluster = cluster(member);
        return switch (member.expect()) {
            case FULL -> cluster.settled();
            case SCALE_UP_ONLY -> cluster.workDone();
            case UNSUPPORTED -> cluster.warnings().stream().anyMatch(UNSUPPORTED_WARNINGS::contains);
            case HELD -> cluster.warnings().stream().anyMatch(HELD_WARNINGS::contains);
        };
    }

    /** What happened to each member, against what it was expected to do. */
    public record MemberReport(FleetScenario.Member member, ClusterVersions versions, int peakWorkers, int finalWorkers, int patches,
            int deletions, List<String> warnings, boolean asExpected) {
    }

    public List<MemberReport> reports() {
        return scenario.members().stream().map(member -> {
            ClusterSimulator cluster = cluster(member);
            AuditTrail trail = trails.get(member);
            int patches = (int) trail.actuations().stream().filter(a -> a.outcome() == Outcome.APPLIED && !a.dryRun()).count();
            int deletions = trail.decisions().stream().mapToInt(d -> d.groups().stream().mapToInt(g -> g.toDelete().size()).sum()).sum();
            ClusterVersions versions = trail.versions();
            boolean supported = member.expect() == Expectation.HELD || versions != null && versions.support() == member.expect().support();
            boolean expected = supported && switch (member.expect()) {
                case FULL -> cluster.settled();
                case SCALE_UP_ONLY -> cluster.workDone() && deletions == 0 && patches > 0;
                case UNSUPPORTED -> patches == 0 && cluster.warnings().stream().anyMatch(UNSUPPORTED_WARNINGS::contains);
                case HELD -> patches == 0 && peaks.get(member) == 0 && cluster.warnings().stream().anyMatch(HELD_WARNINGS::contains);
            };
            return new MemberReport(member, versions, peaks.get(member), cluster.workerPods(), patches, deletions,
                    cluster.warnings().stream().distinct().toList(), expected);
        }).toList();
    }

    /** The judged invariants, summed over the fleet. */
    public ClusterSimulator.Invariants invariants() {
        return fleet.invariants();
    }

    /** Decisions with more than one APPLIED result, and decisions with none, over the fleet. */
    public int[] appliedTwiceAndLost() {
        int twice = 0;
        int lost = 0;
        for (AuditTrail trail : trails.values()) {
            Map<String, Long> applied = trail.actuations().stream().filter(a -> a.outcome() == Outcome.APPLIED && !a.dryRun())
                    .collect(Collectors.groupingBy(ActuationResult::decisionId, Collectors.counting()));
            twice += (int) applied.values().stream().filter(n -> n > 1).count();
            Set<String> answered = trail.actuations().stream().map(ActuationResult::decisionId).collect(Collectors.toSet());
            lost += (int) trail.decisions().stream().filter(d -> !answered.contains(d.id())).count();
        }
        return new int[] {twice, lost};
    }

    public int deadLettered() {
        return trails.values().stream().mapToInt(trail -> trail.deadLetters().size()).sum();
    }

    /** ERROR lines the services logged that the allow-list does not expect: a healthy run has none. */
    public List<String> unexpectedErrors() {
        return ServiceLogs.unexpectedErrors(logs);
    }

    private ClusterSimulator cluster(FleetScenario.Member member) {
        return fleet.cluster(scenario.clusterName(member));
    }

    private void printDecision(String cluster, ScaleDecision decision) {
        out.accept(String.format(Locale.ROOT, "[%5.0fs] %s: decision %s: %s — %s", fleet.clusters().get(0).seconds(), cluster,
                decision.id().substring(0, 8), Digest.targets(decision), String.join("; ", decision.reasons())));
    }

    private void printActuation(String cluster, ActuationResult result) {
        out.accept(String.format(Locale.ROOT, "[%5.0fs] %s: actuation of %s: %s", fleet.clusters().get(0).seconds(), cluster,
                result.decisionId().substring(0, 8), result.outcome()));
    }

    @Override
    public void close() {
        trails.values().forEach(AuditTrail::close);
        services.close();
        fleet.close();
    }
}
