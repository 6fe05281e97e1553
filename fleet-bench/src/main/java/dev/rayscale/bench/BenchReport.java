package dev.rayscale.bench;

import dev.rayscale.demo.RayscaleServices.Service;
import dev.rayscale.sim.ClusterSimulator;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToLongFunction;

/**
 * What a fleet bench measured, as a table for people and one last line for scripts.
 *
 * @param simulatorPassesMs the time between one simulated cluster's passes, sorted: when it is far above the model's tick
 *     the simulator fell behind, and pods come up later than a real cluster's would
 * @param actuatorCalls the (first) actuator's calls to the Kubernetes API and the GCSs, over its whole run
 * @param shares with several planners or actuators, each instance's part of its service's load
 */
public record BenchReport(FleetBench.Settings settings, long maxWorkers, double seconds, Chain.Account account, Map<Service, Usage.Figures> usage,
        Map<String, Long> maxLag, ClusterSimulator.Invariants invariants, long[] simulatorPassesMs, long unreadable, int errorsLogged,
        List<String> rebalanced, CallFigures actuatorCalls, List<InstanceShare> shares) {

    static final int OWN_P99_TARGET_MS = 250;
    static final int REACTION_P99_TARGET_MS = 2_000;
    /** The three services together, per 1,000 clusters. */
    static final double CORES_PER_THOUSAND_CLUSTERS = 1.0;
    static final int RSS_TARGET_MIB = 256;
    /** The simulator keeps to its model when a cluster's passes are at most this far apart (p99): twice its tick. */
    static final int SIMULATOR_P99_TARGET_MS = 1_000;
    /** Below this many clusters the CPU target is not judged: a service's own idle cost would be most of it. */
    static final int CPU_JUDGED_FROM_CLUSTERS = 1_000;

    /**
     * A target the bench judges a run by.
     *
     * @param stage the stage it is about, as the exit message names it ({@code simulator}, {@code own}, {@code reaction},
     *     {@code cpu}, {@code rss}, {@code lost})
     * @param met whether the run met it (true when it is not judged at this size)
     * @param line the target, the verdict and the figure, for people
     */
    public record Target(String stage, boolean met, String line) {
    }

    /** Nothing lost, nothing applied twice, every record readable, no ERROR logged, the simulated clusters' invariants held. */
    public boolean clean() {
        return account.lost() == 0 && account.appliedTwice() == 0 && unreadable == 0 && errorsLogged == 0 && invariants.held();
    }

    public List<String> table() {
        List<String> lines = new ArrayList<>();
        lines.add(String.format(Locale.ROOT, "%d clusters (%,d workers at most), %.0f demand changes/s for %.0f s: %d changes, %d snapshots, "
                + "%d decisions, %d results (%d changes not made: cluster at its largest)", settings.clusters(), maxWorkers,
                settings.changesPerSecond(), seconds, account.latencies().size(), account.snapshots(), account.decisions(), account.results(),
                account.skipped()));
        if (!account.warmUp().isEmpty()) {
            lines.add(String.format(Locale.ROOT, "before it, %d s of warm-up under the same load (not in the figures below): %d changes, end to end "
                    + "p50 %.0f ms, p99 %.0f ms", settings.warmUp().toSeconds(), account.warmUp().size(),
                    account.warmUpQuantile(Chain.Latency::appliedMs, 0.5), account.warmUpQuantile(Chain.Latency::appliedMs, 0.99)));
        }
        lines.add(String.format(Locale.ROOT, "%-44s %9s %9s %9s", "from the GCS state changing to", "p50 ms", "p99 ms", "max ms"));
        lines.add(row("  the snapshot published", Chain.Latency::snapshotMs));
        lines.add(row("  the decision published", Chain.Latency::decisionMs));
        lines.add(row("  the patch applied (end to end)", Chain.Latency::appliedMs));
        lines.add(String.format(Locale.ROOT, "%-44s %9.0f %9.0f", "    of the changes acted on when first seen",
                account.actedQuantile(Chain.Latency::appliedMs, 0.5), account.actedQuantile(Chain.Latency::appliedMs, 0.99)));
        lines.add(row("from the collector's GCS read to the patch", Chain.Latency::pipelineMs));
        lines.add(hop("Rayscale's own: snapshot -> patch sent", account.ownMs()));
        lines.add(hop("each hop: snapshot -> decision (planner)", account.planningMs()));
        lines.add(hop("each hop: decision -> result (actuator)", account.actuatingMs()));
        lines.add(hop("  any result: decision -> taken up", account.actuator().waitingMs()));
        lines.add(hop("    of decisions that ask for more replicas", account.actuator().growingWaitingMs()));
        lines.add(String.format(Locale.ROOT, "    taken up over %d s: %d, of them %d after their cluster's previous decision, not yet complete "
                + "when they were published", Chain.LATE_MS / 1000, account.actuator().late(), account.actuator().lateBehindTheirCluster()));
        lines.add(hop("  any result: taken up -> result", account.actuator().handlingMs()));
        if (!actuatorCalls.kinds().isEmpty()) {
            lines.add(String.format(Locale.ROOT, "%-44s %9s %9s %9s %9s", "the actuator's calls, its whole run", "count", "mean ms", "> 1 s", "> 5 s"));
            lines.addAll(actuatorCalls.lines());
        }
        lines.add(String.format(Locale.ROOT, "%-20s %10s %10s", "service", "CPU cores", "RSS MiB"));
        usage.forEach((service, figures) -> lines.add(String.format(Locale.ROOT, "%-20s %10.2f %10d", service.name().toLowerCase(Locale.ROOT),
                figures.cores(), figures.rssMiB())));
        lines.addAll(InstanceShare.lines(shares));
        lines.add(hop("simulator: between a cluster's passes", simulatorPassesMs));
        double passesP99 = Chain.Account.quantile(simulatorPassesMs, 0.99);
        if (passesP99 >= SIMULATOR_P99_TARGET_MS) {
            lines.add(String.format(Locale.ROOT, "the simulator fell behind its model (passes %.0f ms apart at p99, against %d ms): pods came up and "
                    + "went later than a real cluster's, so the changes that waited for them (held when first seen, not made at the largest size) "
                    + "measure the simulator; the changes acted on when first seen measure the pipeline", passesP99, FleetBench.TICK.toMillis()));
        }
        maxLag.forEach((group, lag) -> lines.add("largest consumer lag of " + group + ": " + lag + " records"));
        if (!rebalanced.isEmpty()) {
            lines.add("stopped and started again halfway (rebalance): " + String.join(", ", rebalanced));
        }
        lines.add(String.format(Locale.ROOT, "changes acted on when first seen %d; held when first seen %d (the planner's answer to the first "
                + "snapshot that saw them changed nothing: their demand waited for launches asked for earlier or for pods on their way; timed "
                + "above to a later decision)", account.actedWhenSeen(), account.heldWhenSeen()));
        long[] stopped = account.incompleteByStage();
        lines.add(String.format(Locale.ROOT, "changes not acted on %d (waiting for their cluster's pending launches %d, lost %d; no snapshot "
                + "saw %d of them, %d had no decision after their snapshot, %d no result after their decision), "
                + "decisions without a result %d, decisions applied twice %d, unreadable records %d, ERROR lines logged %d, "
                + "busy pods deleted %d", account.incomplete(), account.waitingForLaunches(), account.lostChanges(), stopped[0], stopped[1],
                stopped[2], account.unanswered(), account.appliedTwice(), unreadable, errorsLogged, invariants.busyDeletions()));
        lines.addAll(targets());
        return lines;
    }

    /**
     * The targets of a fleet (docs/benchmarks.md), each said met or not as this run measured it: the simulator kept its
     * model (else the other figures measure it, not Rayscale), Rayscale's own time and its reaction, the services' CPU and
     * memory, nothing lost and nothing applied twice.
     */
    public List<Target> judged() {
        double passes = Chain.Account.quantile(simulatorPassesMs, 0.99);
        double own = Chain.Account.quantile(account.ownMs(), 0.99);
        double reaction = reactionP99Ms();
        double cores = cpuCores();
        double coreBudget = CORES_PER_THOUSAND_CLUSTERS * settings.clusters() / 1000.0;
        boolean cpuJudged = settings.clusters() >= CPU_JUDGED_FROM_CLUSTERS;
        long largestRss = usage.values().stream().mapToLong(Usage.Figures::rssMiB).max().orElse(Long.MAX_VALUE);
        return List.of(
                new Target("simulator", passes < SIMULATOR_P99_TARGET_MS, String.format(Locale.ROOT,
                        "target: the simulator keeps its model, a cluster's passes p99 < %d ms apart (its tick %d ms): %s (%.0f ms)",
                        SIMULATOR_P99_TARGET_MS, FleetBench.TICK.toMillis(), met(passes < SIMULATOR_P99_TARGET_MS), passes)),
                new Target("own", own < OWN_P99_TARGET_MS, String.format(Locale.ROOT,
                        "target: Rayscale's own time, snapshot published -> patch sent, p99 < %d ms: %s (%.0f ms over %d patches)",
                        OWN_P99_TARGET_MS, met(own < OWN_P99_TARGET_MS), own, account.ownMs().length)),
                new Target("reaction", reaction < REACTION_P99_TARGET_MS, String.format(Locale.ROOT,
                        "target: reaction, the GCS pull that carries a change -> patch applied, p99 < %d ms: %s (%.0f ms over the %d changes "
                        + "acted on when first seen)", REACTION_P99_TARGET_MS, met(reaction < REACTION_P99_TARGET_MS), reaction, account.actedWhenSeen())),
                new Target("cpu", !cpuJudged || cores < coreBudget, cpuJudged
                        ? String.format(Locale.ROOT, "target: the three services' CPU < %.0f core per 1,000 clusters: %s (%.2f cores for %,d clusters)",
                                CORES_PER_THOUSAND_CLUSTERS, met(cores < coreBudget), cores, settings.clusters())
                        : String.format(Locale.ROOT, "target: the three services' CPU < %.0f core per 1,000 clusters: not judged below %,d clusters "
                                + "(%.2f cores for %,d)", CORES_PER_THOUSAND_CLUSTERS, CPU_JUDGED_FROM_CLUSTERS, cores, settings.clusters())),
                new Target("rss", largestRss < RSS_TARGET_MIB, String.format(Locale.ROOT, "target: each service < %d MiB resident: %s (largest %d MiB)",
                        RSS_TARGET_MIB, met(largestRss < RSS_TARGET_MIB), largestRss)),
                new Target("lost", account.lost() == 0 && account.appliedTwice() == 0, String.format(Locale.ROOT,
                        "target: nothing lost, nothing applied twice: %s (lost %d, applied twice %d)",
                        met(account.lost() == 0 && account.appliedTwice() == 0), account.lost(), account.appliedTwice())));
    }

    /** The targets' lines. */
    public List<String> targets() {
        return judged().stream().map(Target::line).toList();
    }

    /** The stages whose targets the run missed; empty when it met them all. */
    public List<String> missed() {
        return judged().stream().filter(target -> !target.met()).map(Target::stage).toList();
    }

    /** Reaction: from the GCS pull that carried a change to its patch applied, over the changes acted on when first seen. */
    private double reactionP99Ms() {
        return account.actedQuantile(Chain.Latency::appliedMs, 0.99);
    }

    /** The three services' CPU together, in cores. */
    private double cpuCores() {
        return usage.values().stream().mapToDouble(Usage.Figures::cores).sum();
    }

    private static String met(boolean met) {
        return met ? "met" : "NOT MET";
    }

    private String row(String label, ToLongFunction<Chain.Latency> stage) {
        return String.format(Locale.ROOT, "%-44s %9.0f %9.0f %9d", label, account.quantile(stage, 0.5), account.quantile(stage, 0.99),
                account.max(stage));
    }

    private static String hop(String label, long[] sorted) {
        return String.format(Locale.ROOT, "%-44s %9.0f %9.0f %9.0f", label, Chain.Account.quantile(sorted, 0.5), Chain.Account.quantile(sorted, 0.99),
                Chain.Account.quantile(sorted, 1));
    }

    /**
     * {@code bench: clusters=N changes=C e2e_p50_ms=.. e2e_p99_ms=.. pipeline_p99_ms=.. acted_e2e_p50_ms=.. acted_e2e_p99_ms=..
     * held_when_seen=.. collector_rss_mib=.. planner_rss_mib=.. actuator_rss_mib=.. own_p99_ms=.. reaction_p99_ms=..
     * cpu_cores=.. simulator_p99_ms=.. lost=0 applied_twice=0}: end to end over every change acted on, and over those acted on
     * when first seen (the reaction).
     */
    public String line() {
        return String.format(Locale.ROOT, "bench: clusters=%d changes=%d e2e_p50_ms=%.0f e2e_p99_ms=%.0f pipeline_p99_ms=%.0f acted_e2e_p50_ms=%.0f "
                + "acted_e2e_p99_ms=%.0f held_when_seen=%d collector_rss_mib=%d planner_rss_mib=%d actuator_rss_mib=%d own_p99_ms=%.0f "
                + "reaction_p99_ms=%.0f cpu_cores=%.2f simulator_p99_ms=%.0f lost=%d applied_twice=%d",
                settings.clusters(), account.latencies().size(), account.quantile(Chain.Latency::appliedMs, 0.5),
                account.quantile(Chain.Latency::appliedMs, 0.99), account.quantile(Chain.Latency::pipelineMs, 0.99),
                account.actedQuantile(Chain.Latency::appliedMs, 0.5), account.actedQuantile(Chain.Latency::appliedMs, 0.99), account.heldWhenSeen(),
                usage.get(Service.COLLECTOR).rssMiB(), usage.get(Service.PLANNER).rssMiB(), usage.get(Service.ACTUATOR).rssMiB(),
                Chain.Account.quantile(account.ownMs(), 0.99), reactionP99Ms(), cpuCores(), Chain.Account.quantile(simulatorPassesMs, 0.99),
                account.lost(), account.appliedTwice());
    }
}
