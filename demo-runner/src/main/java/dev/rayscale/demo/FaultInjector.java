package dev.rayscale.demo;

import dev.rayscale.demo.RayscaleServices.Member;
import dev.rayscale.demo.RayscaleServices.Service;
import dev.rayscale.events.EventType;
import dev.rayscale.events.Outcome;
import dev.rayscale.events.Topics;
import dev.rayscale.sim.ClusterSimulator;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.DoubleSupplier;
import java.util.stream.Collectors;

/**
 * Injects {@link Fault}s into a running demo, each at the moment it hurts: poison and API faults from
 * the start; a broker restart, a planner or collector kill, a rebalance and GCS faults once the first
 * scale-up has been applied (work is running); the actuator's kill between a drain the GCS accepted and
 * the patch that should follow it. For each it reports when it struck, how long it lasted, and how long
 * the loop took to catch up after it ({@link CatchUp}).
 */
final class FaultInjector implements AutoCloseable {

    /** How long the extra planner and actuator stay in their groups. */
    static final Duration EXTRA_MEMBERS_STAY = Duration.ofSeconds(5);
    /** How long an injected API timeout goes unanswered: longer than the actuator's request timeout (5 s). */
    static final Duration API_TIMEOUT = Duration.ofSeconds(7);
    static final long API_FAULT_SEED = 42;
    /** The wall-clock time a run may take beyond its workload's limit, per fault injected. */
    static final Duration ALLOWANCE = Duration.ofSeconds(30);

    private final List<Fault> faults;
    private final ClusterSimulator simulator;
    private final RayscaleServices services;
    private final AuditTrail trail;
    private final BrokerProcess broker;
    private final String bootstrapServers;
    private final Consumer<String> out;
    private final DoubleSupplier simSeconds;
    private final CatchUp catchUp;
    private final List<Thread> threads = new ArrayList<>();
    private final List<Tracker> trackers = new ArrayList<>();
    private final List<PoisonWriter.Landed> poison = new CopyOnWriteArrayList<>();
    private volatile boolean closing;

    /**
     * @param broker the run's own broker, for {@code broker-restart} and {@code broker-outage}; null if the run does not own its broker
     * @param simSeconds simulated seconds into the workload, now
     */
    FaultInjector(List<Fault> faults, ClusterSimulator simulator, RayscaleServices services, AuditTrail trail, BrokerProcess broker,
            String bootstrapServers, Consumer<String> out, DoubleSupplier simSeconds) {
        Optional<Fault> stopsTheBroker = faults.stream().filter(Fault::stopsTheBroker).findFirst();
        if (broker == null && stopsTheBroker.isPresent()) {
            throw new IllegalArgumentException(stopsTheBroker.get().kind().name + " needs a run that owns its broker");
        }
        this.faults = List.copyOf(faults);
        this.simulator = simulator;
        this.services = services;
        this.trail = trail;
        this.broker = broker;
        this.bootstrapServers = bootstrapServers;
        this.out = out;
        this.simSeconds = simSeconds;
        this.catchUp = new CatchUp(bootstrapServers, trail, services.groupTopics());
    }

    void start() {
        for (Fault fault : faults) {
            Tracker tracker = new Tracker(fault);
            trackers.add(tracker);
            Thread thread = new Thread(() -> inject(fault, tracker), "fault-" + fault);
            thread.setDaemon(true);
            threads.add(thread);
            thread.start();
        }
    }

    /** One report per fault, in the order given; a fault whose moment never came says so. */
    List<FaultReport> reports() {
        return trackers.stream().map(Tracker::report).toList();
    }

    /** True once every fault has struck and the loop has caught up after it. */
    boolean allCaughtUp() {
        return reports().stream().allMatch(FaultReport::recovered);
    }

    /** Where each poison record landed. */
    List<PoisonWriter.Landed> poison() {
        return List.copyOf(poison);
    }

    /** Poison records that landed but are not (yet) on a dead-letter topic with a reason. */
    long poisonNotDeadLettered() {
        Set<String> setAside = trail.deadLetters().stream().filter(letter -> letter.reason() != null && !letter.reason().isBlank())
                .map(letter -> letter.topic() + "-" + letter.partition() + "@" + letter.offset()).collect(Collectors.toSet());
        return poison.stream().filter(landed -> !setAside.contains(landed.topic() + "-" + landed.partition() + "@" + landed.offset())).count();
    }

    private void inject(Fault fault, Tracker tracker) {
        try {
            switch (fault.kind()) {
                case POISON -> poison(tracker);
                case BROKER_RESTART -> restartBroker(tracker, fault.brokerDowntime());
                case BROKER_OUTAGE -> brokerOutage(tracker, fault.brokerDowntime());
                case KILL -> kill(tracker, fault.service());
                case API_FAULTS -> apiFaults(tracker, fault.number());
                case GCS_OUTAGE, GCS_HANG -> gcs(tracker, fault);
                case REBALANCE -> rebalance(tracker);
            }
        } catch (InterruptedException stopping) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException failed) {
            if (!closing) {
                out.accept("!! fault " + fault + " could not be injected: " + failed);
            }
        }
    }

    private void poison(Tracker tracker) throws InterruptedException {
        tracker.strike("1,000 bad records on each input topic");
        PoisonWriter.Written written = PoisonWriter.write(bootstrapServers, simulator.clusterId(), List.of(EventType.SNAPSHOT, EventType.DECISION));
        poison.addAll(written.landed());
        tracker.over();
        await(() -> poisonNotDeadLettered() == 0);
        tracker.recoverWhenCaughtUp(String.format(Locale.ROOT, "%d records written, %d refused by the broker, %d dead-lettered",
                written.landed().size(), written.refused(), written.landed().size() - poisonNotDeadLettered()));
    }

    private void restartBroker(Tracker tracker, Duration downtime) throws InterruptedException {
        await(this::firstScaleUpApplied);
        tracker.strike("the broker is killed (SIGKILL)");
        broker.crash();
        resumeBrokerAfter(tracker, downtime, "resumed on its data");
    }

    private void brokerOutage(Tracker tracker, Duration downtime) throws InterruptedException {
        await(this::firstScaleUpApplied);
        CountDownLatch crashed = new CountDownLatch(1);
        simulator.apiFaults().onNextPatch(() -> {
            tracker.strike("the actuator is patching a RayCluster: the broker is killed (SIGKILL) before its result is sent");
            broker.crash();
            crashed.countDown();
        });
        await(() -> crashed.getCount() == 0);
        resumeBrokerAfter(tracker, downtime, "while a decision's result waited, resumed on its data");
    }

    /** The killed broker stays down for {@code downtime} (the fault being modelled), then resumes on its data. */
    private void resumeBrokerAfter(Tracker tracker, Duration downtime, String how) throws InterruptedException {
        Thread.sleep(downtime.toMillis());
        broker.resume();
        tracker.over();
        tracker.recoverWhenCaughtUp("down " + downtime.toSeconds() + " s, " + how);
    }

    private void kill(Tracker tracker, Service service) throws InterruptedException {
        if (service == Service.ACTUATOR) {
            CountDownLatch killed = new CountDownLatch(1);
            simulator.gcsFaults().onNextDrainAccepted(() -> {
                tracker.strike("the GCS accepted a drain: the actuator is killed (SIGKILL) before it can patch");
                services.kill(service);
                killed.countDown();
            });
            await(() -> killed.getCount() == 0);
        } else {
            await(this::firstScaleUpApplied);
            tracker.strike(service.module + " is killed (SIGKILL)");
            services.kill(service);
        }
        services.start(service);
        tracker.over();
        tracker.recoverWhenCaughtUp("killed and started again");
    }

    private void apiFaults(Tracker tracker, double probability) throws InterruptedException {
        tracker.strike(String.format(Locale.ROOT, "RayCluster GETs and PATCHes fail with probability %.2f; the first scale-down meets a 409", probability));
        simulator.apiFaults().inject(probability, API_FAULT_SEED, API_TIMEOUT);
        simulator.apiFaults().conflictOnNextScaleDown();
        await(() -> simulator.apiFaults().scaleDownConflictSent() != null);
        tracker.over();
        // Recovered once a scale-down is applied after the targeted conflict: the drained nodes were not left behind.
        Instant conflict = simulator.apiFaults().scaleDownConflictSent();
        await(() -> trail.actuations().stream().anyMatch(a -> a.outcome() == Outcome.APPLIED && !a.dryRun()
                && a.completedAt().isAfter(conflict) && a.groups().stream().anyMatch(g -> !g.workersToDelete().isEmpty())));
        tracker.recovered("faults injected: " + simulator.apiFaults().injected().entrySet().stream()
                .map(e -> e.getKey() + " x" + e.getValue()).collect(Collectors.joining(", ")));
    }

    private void gcs(Tracker tracker, Fault fault) throws InterruptedException {
        await(() -> firstScaleUpApplied() && !simulator.gcsFaults().active());
        boolean hang = fault.kind() == Fault.Kind.GCS_HANG;
        tracker.strike(String.format(Locale.ROOT, "every GCS call %s for %.0f simulated seconds", hang ? "hangs" : "fails", fault.number()));
        if (hang) {
            simulator.gcsFaults().hangFor(fault.number());
        } else {
            simulator.gcsFaults().failFor(fault.number());
        }
        await(() -> !simulator.gcsFaults().active());
        tracker.over();
        tracker.recoverWhenCaughtUp(String.format(Locale.ROOT, "%.0f simulated seconds", fault.number()));
    }

    private void rebalance(Tracker tracker) throws InterruptedException {
        await(this::firstScaleUpApplied);
        tracker.strike("a second scaling-planner and k8s-actuator join their groups");
        List<Member> extra = List.of(new Member(Service.PLANNER, 2), new Member(Service.ACTUATOR, 2));
        extra.forEach(services::start);
        await(() -> catchUp.members(services.group(Service.PLANNER)) >= 2 && catchUp.members(services.group(Service.ACTUATOR)) >= 2);
        Thread.sleep(EXTRA_MEMBERS_STAY.toMillis());
        extra.forEach(services::stop);
        tracker.over();
        tracker.recoverWhenCaughtUp("joined, stayed " + EXTRA_MEMBERS_STAY.toSeconds() + " s, left");
    }

    private boolean firstScaleUpApplied() {
        return trail.actuations().stream().anyMatch(a -> a.outcome() == Outcome.APPLIED && !a.dryRun());
    }

    private void await(BooleanSupplier condition) throws InterruptedException {
        while (!condition.getAsBoolean()) {
            if (closing) {
                throw new InterruptedException("the run is over");
            }
            Thread.sleep(100);
        }
    }

    @Override
    public void close() {
        closing = true;
        threads.forEach(Thread::interrupt);
        for (Thread thread : threads) {
            try {
                thread.join(TimeUnit.SECONDS.toMillis(30));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        catchUp.close();
    }

    /** The times of one fault, printed as they happen and reported at the end. */
    private final class Tracker {

        private final Fault fault;
        private double struckAt = Double.NaN;
        private Instant struck;
        private Instant over;
        private double recovery = Double.NaN;
        private String detail;

        Tracker(Fault fault) {
            this.fault = fault;
        }

        synchronized void strike(String what) {
            if (struck != null) {
                return;
            }
            struck = Instant.now();
            struckAt = simSeconds.getAsDouble();
            out.accept(String.format(Locale.ROOT, "[%5.0fs] !! fault %s: %s", struckAt, fault, what));
        }

        synchronized void over() {
            over = Instant.now();
        }

        void recoverWhenCaughtUp(String detail) throws InterruptedException {
            Instant since;
            synchronized (this) {
                since = over;
                this.detail = detail;
            }
            if (catchUp.await(since, () -> closing)) {
                recovered(detail);
            }
        }

        synchronized void recovered(String detail) {
            this.detail = detail;
            recovery = Duration.between(over, Instant.now()).toMillis() / 1000.0;
            out.accept(String.format(Locale.ROOT, "[%5.0fs] !! fault %s over after %.1f s; the loop caught up %.1f s later",
                    simSeconds.getAsDouble(), fault, seconds(struck, over), recovery));
        }

        synchronized FaultReport report() {
            String what = struck == null ? "its moment never came"
                    : over == null ? "still under way when the run ended"
                    : Double.isNaN(recovery) ? detail + "; the loop had not caught up when the run ended" : detail;
            return new FaultReport(fault.toString(), struckAt, struck == null || over == null ? Double.NaN : seconds(struck, over), recovery, what);
        }

        private static double seconds(Instant from, Instant to) {
            return Duration.between(from, to).toMillis() / 1000.0;
        }
    }
}
