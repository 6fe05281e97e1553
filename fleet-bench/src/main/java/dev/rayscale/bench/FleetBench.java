package dev.rayscale.bench;

import dev.rayscale.demo.ProcessStats;
import dev.rayscale.demo.RayscaleServices;
import dev.rayscale.demo.RayscaleServices.Member;
import dev.rayscale.demo.RayscaleServices.Service;
import dev.rayscale.demo.ServiceLogs;
import dev.rayscale.demo.Topics;
import dev.rayscale.sim.ClusterSimulator;
import dev.rayscale.sim.Fleet;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * The whole pipeline at fleet scale: many simulated Ray clusters in one Kubernetes API ({@link Fleet}),
 * Rayscale's three services as processes over a real broker with the Helm chart's JVM settings, and
 * each cluster's demand changing on its own schedule ({@link FleetLoad}). Every change is followed to
 * its snapshot, decision and actuation result on the topics ({@link Chain}); the services' CPU and
 * memory come from /proc, the consumer lag from the broker. With several planners or actuators, one
 * of each is stopped halfway and started again, so that their groups rebalance under load.
 */
public final class FleetBench {

    /** Partitions of the topics the bench creates on its own broker: room for several planners and actuators. */
    public static final int PARTITIONS = 6;
    private static final Duration DRAIN = Duration.ofSeconds(60);
    private static final Duration SETTLE = Duration.ofSeconds(20);
    /** The longest the end waits for an actuator that is still answering decisions. */
    private static final Duration LAST_ANSWERS = Duration.ofMinutes(3);
    /** How long the end waits for the simulated GCSs to pull the last changes, when the simulator is behind its model. */
    private static final Duration PULLS = Duration.ofMinutes(3);
    private static final Duration REJOIN_AFTER = Duration.ofSeconds(15);
    /**
     * The services and the broker run at this nice value, the simulated fleet at the bench's own: the fleet stands in for
     * clusters and an API server that run on machines of their own, so on this one its passes come first and keep to the
     * model, and Rayscale is measured on what CPU the world leaves it (docs/benchmarks.md).
     */
    public static final int NICENESS = 5;
    /** How often the simulator passes over each cluster (operator, kubelet, Ray) when it keeps up. */
    static final Duration TICK = Duration.ofMillis(500);
    /**
     * The threads that pass over the clusters. A pass can wait on the simulated API server's one store lock, which every
     * write of the fleet and of Rayscale takes: with two threads, the clusters due behind two such waits were late
     * (passes 1.06-1.09 s apart at p99 at 1,000 clusters; 0.63-0.79 s with four, docs/fleet-bench-log.md).
     */
    static final int SIMULATOR_THREADS = 4;

    /**
     * @param largest the largest size of the ordinary clusters, in workers
     * @param changesPerSecond demand changes over the whole fleet: each cluster changes every clusters/rate seconds
     * @param warmUp how long the changes run before the measurement starts: the services' busy paths are compiled, and
     *     the actuator reads each cluster once, only under load (an idle warm-up spared the measurement nothing;
     *     docs/fleet-bench-log.md). Its changes are followed to the end like the measured ones, and timed apart.
     * @param pollInterval the collector's GCS poll interval
     */
    public record Settings(int clusters, int largest, int bigClusters, double changesPerSecond, Duration warmUp, Duration duration, int planners,
            int actuators, Duration pollInterval, long seed) {

        public Settings {
            if (planners < 1 || actuators < 1 || changesPerSecond <= 0 || duration.isNegative() || duration.isZero() || warmUp.isNegative()) {
                throw new IllegalArgumentException("at least one planner and one actuator, a positive rate, a positive duration and a warm-up "
                        + "of zero or more");
            }
        }
    }

    private final Settings settings;
    private final String bootstrapServers;
    private final Path root;
    private final Path work;
    private final Consumer<String> out;
    /** Changes made that no pull of their GCS has carried yet. */
    private final AtomicInteger unpulled = new AtomicInteger();

    private FleetBench(Settings settings, String bootstrapServers, Path root, Path work, Consumer<String> out) {
        this.settings = settings;
        this.bootstrapServers = bootstrapServers;
        this.root = root;
        this.work = work;
        this.out = out;
    }

    public static BenchReport run(Settings settings, String bootstrapServers, Path root, Path work, Consumer<String> out) {
        return new FleetBench(settings, bootstrapServers, root, work, out).run();
    }

    private BenchReport run() {
        FleetLoad load = new FleetLoad(settings.clusters(), settings.largest(), settings.bigClusters(), settings.clusters() / settings.changesPerSecond(),
                settings.seed());
        Topics.create(bootstrapServers, PARTITIONS);
        out.accept(String.format(Locale.ROOT, "starting %d simulated clusters (%d of 2,000 workers; %,d workers at most) ...",
                settings.clusters(), settings.bigClusters(), load.maxWorkers()));
        try (Fleet fleet = Fleet.start(load.workloads(), TICK, SIMULATOR_THREADS)) {
            awaitGcs(fleet);
            fleet.begin();
            String run = "bench-" + Long.toString(System.currentTimeMillis(), 36);
            // New groups start at the end of the topics: what is on them from before the run is not its work.
            try (RayscaleServices services = new RayscaleServices(root, work.resolve("logs"), bootstrapServers, fleet.apiServerUrl(), run)
                    .yieldingTo(NICENESS)) {
                Map<Service, List<String>> options = jvmOptions();
                List<Member> members = members();
                out.accept("starting " + members.size() + " service processes (JVM settings of deploy/helm/rayscale/values.yaml) ...");
                for (Member member : members) {
                    services.start(member, options.getOrDefault(member.service(), List.of()));
                }
                Topics.awaitAssigned(bootstrapServers, services.groupTopics(), Duration.ofSeconds(60));
                return measure(load, fleet, services, members, options);
            }
        }
    }

    private BenchReport measure(FleetLoad load, Fleet fleet, RayscaleServices services, List<Member> members,
            Map<Service, List<String>> options) {
        Chain chain = new Chain();
        fleet.onPatchSent(chain::patchSent);
        Usage usage = new Usage(services, members);
        HandledRecords handled = new HandledRecords(member -> InstanceShare.counted(services, member));
        try (ChainReader reader = new ChainReader(bootstrapServers, chain);
                GroupLag lag = new GroupLag(bootstrapServers, List.of(services.group(Service.PLANNER), services.group(Service.ACTUATOR)))) {
            ScheduledExecutorService schedule = Executors.newScheduledThreadPool(2, runnable -> {
                Thread thread = new Thread(runnable, "fleet-bench");
                thread.setDaemon(true);
                return thread;
            });
            long started;
            List<String> rebalances;
            try {
                long period = Math.round(load.periodSeconds() * 1000);
                for (FleetLoad.Member member : load.members()) {
                    ClusterSimulator cluster = fleet.cluster(member.name());
                    schedule.scheduleAtFixedRate(() -> change(load, member, cluster, chain), Math.round(member.phaseSeconds() * 1000), period,
                            TimeUnit.MILLISECONDS);
                }
                out.accept(String.format(Locale.ROOT, "warming up %d s: %.0f demand changes per second, followed but not measured ...",
                        settings.warmUp().toSeconds(), settings.changesPerSecond()));
                sleep(settings.warmUp());
                started = System.nanoTime();
                chain.measureFrom(System.currentTimeMillis());
                schedule.scheduleAtFixedRate(() -> {
                    usage.sample();
                    lag.sample();
                }, 0, 2, TimeUnit.SECONDS);
                out.accept(String.format(Locale.ROOT, "measuring %d s: the same changes go on ...", settings.duration().toSeconds()));
                usage.begin();
                handled.begin(members);
                rebalances = rebalanceHalfway(services, options, members, handled);
                sleep(settings.duration().minus(Duration.ofNanos(System.nanoTime() - started)));
            } finally {
                // Also when the run fails: changes must not go on being made into a fleet being closed.
                schedule.shutdownNow();
            }
            double seconds = (System.nanoTime() - started) / 1e9;
            usage.end(seconds);
            out.accept("changes stopped; waiting for the last ones to be acted on ...");
            List<InstanceShare> shares = InstanceShare.read(handled, usage.coresByMember());
            Chain.Account account = drain(chain, reader);
            return new BenchReport(settings, load.maxWorkers(), seconds, account, usage.figures(), lag.max(), fleet.invariants(),
                    fleet.passIntervalsMillis(), reader.unreadable(), ServiceLogs.unexpectedErrors(work.resolve("logs")).size(), rebalances,
                    actuatorCalls(services), shares);
        }
    }

    private void change(FleetLoad load, FleetLoad.Member member, ClusterSimulator cluster, Chain chain) {
        ClusterSimulator.Occupancy occupancy = cluster.occupancy();
        load.nextChange(member, occupancy.workerPods(), occupancy.tasks()).ifPresentOrElse(change -> {
            unpulled.incrementAndGet();
            // The GCS state changes when its pull of the raylets' loads carries the tasks: timed from then.
            cluster.submitTasks(FleetLoad.TASK, change.tasks(), change.seconds(), version -> {
                chain.changed(new Chain.Change(cluster.clusterId(), version, System.currentTimeMillis()));
                unpulled.decrementAndGet();
            });
        }, chain::skipped);
    }

    /** With several planners or actuators: the second of each stops (SIGTERM) halfway and starts again {@link #REJOIN_AFTER} later. */
    private List<String> rebalanceHalfway(RayscaleServices services, Map<Service, List<String>> options, List<Member> members,
            HandledRecords handled) {
        List<Member> rejoining = members.stream().filter(member -> member.copy() == 2).toList();
        if (rejoining.isEmpty()) {
            return List.of();
        }
        Duration half = settings.duration().dividedBy(2);
        sleep(half);
        List<String> done = new ArrayList<>();
        for (Member member : rejoining) {
            out.accept("stopping " + member.name() + " (its group rebalances) ...");
            handled.stopping(member);
            services.stop(member);
        }
        sleep(REJOIN_AFTER);
        for (Member member : rejoining) {
            out.accept("starting " + member.name() + " again ...");
            services.start(member, options.getOrDefault(member.service(), List.of()));
            done.add(member.name());
        }
        return done;
    }

    /**
     * Waits until every change was acted on or waits for its cluster's launches, and every decision was answered, or
     * until {@link #DRAIN} is up; then asks which changes' first snapshots the planner answered by changing nothing.
     */
    private Chain.Account drain(Chain chain, ChainReader reader) {
        awaitPulled();
        settled(chain, reader, snapshot -> false, DRAIN, DRAIN);
        Set<String> undecided = chain.firstSightsUndecided();
        out.accept("planning again the " + undecided.size() + " snapshots that first saw a change and brought no decision ...");
        Set<String> changingNothing = reader.changingNothing(undecided);
        // The fleet goes on meanwhile (pods come up, the planner decides again): those decisions' results are waited for too.
        Chain.Account account = settled(chain, reader, changingNothing::contains, SETTLE, LAST_ANSWERS);
        if (account.lost() > 0) {
            out.accept(account.lost() + " changes or decisions without a result when the wait ended (none answered for " + SETTLE.toSeconds()
                    + " s, or " + LAST_ANSWERS.toMinutes() + " minutes up)");
        }
        return account;
    }

    /** The first actuator's calls, from its metrics while it still runs; none if they cannot be read. */
    private CallFigures actuatorCalls(RayscaleServices services) {
        try {
            return CallFigures.of(ProcessStats.metrics(services.port(Service.ACTUATOR)));
        } catch (IOException e) {
            out.accept("could not read the actuator's metrics: " + e);
            return new CallFigures(List.of());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new CallFigures(List.of());
        }
    }

    /** Until every change made is in its GCS's state: a cluster the simulator is behind on pulls its raylets' loads late. */
    private void awaitPulled() {
        long deadline = System.nanoTime() + PULLS.toNanos();
        if (unpulled.get() > 0) {
            out.accept("waiting for the simulated GCSs to pull the last " + unpulled.get() + " changes (the simulator is behind its model) ...");
        }
        while (unpulled.get() > 0 && System.nanoTime() < deadline) {
            sleep(Duration.ofSeconds(1));
        }
    }

    /**
     * The account once nothing is lost (every change acted on or waiting for launches, every decision answered), or once
     * no decision has been answered for {@code stalled}, or at {@code atMost}: an actuator still answering a wave of
     * decisions (the fleet goes on deciding while the end waits) is waited for, so that a slow tail is not counted as
     * lost; a decision never answered still is.
     */
    private static Chain.Account settled(Chain chain, ChainReader reader, Predicate<String> changesNothing, Duration stalled, Duration atMost) {
        long started = System.nanoTime();
        long lastAnswer = started;
        Chain.Account account = chain.account(reader::waitsForLaunches, changesNothing);
        while (account.lost() > 0 && System.nanoTime() - lastAnswer < stalled.toNanos() && System.nanoTime() - started < atMost.toNanos()) {
            sleep(Duration.ofSeconds(2));
            Chain.Account next = chain.account(reader::waitsForLaunches, changesNothing);
            if (next.results() > account.results()) {
                lastAnswer = System.nanoTime();
            }
            account = next;
        }
        return account;
    }

    private void awaitGcs(Fleet fleet) {
        long deadline = System.nanoTime() + Duration.ofMinutes(3).toNanos();
        while (!fleet.gcsUp()) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("the simulated heads did not all start within 3 minutes");
            }
            sleep(Duration.ofMillis(200));
        }
    }

    private List<Member> members() {
        List<Member> members = new ArrayList<>(List.of(new Member(Service.COLLECTOR, 1)));
        for (int copy = 1; copy <= settings.planners(); copy++) {
            members.add(new Member(Service.PLANNER, copy));
        }
        for (int copy = 1; copy <= settings.actuators(); copy++) {
            members.add(new Member(Service.ACTUATOR, copy));
        }
        return members;
    }

    /** Each service's JVM options beyond the Helm chart's ({@link RayscaleServices} starts each as the chart does): the collector at the bench's poll interval. */
    private Map<Service, List<String>> jvmOptions() {
        return Map.of(Service.COLLECTOR, List.of("-Drayscale.collector.poll-interval=" + settings.pollInterval().toMillis() + "ms",
                "-Drayscale.collector.heartbeat=5s"));
    }

    private static void sleep(Duration duration) {
        if (duration.isNegative() || duration.isZero()) {
            return;
        }
        try {
            Thread.sleep(duration.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }
}
