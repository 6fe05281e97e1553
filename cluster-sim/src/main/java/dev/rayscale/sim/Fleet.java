package dev.rayscale.sim;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.ray.v1.RayCluster;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;
import java.util.function.IntFunction;
import org.jboss.logging.Logger;

/**
 * Many simulated Ray clusters in one Kubernetes API, as a platform team runs them: one embedded API
 * server holding every RayCluster and pod (a started fleet's spread over namespaces of
 * {@value #CLUSTERS_PER_NAMESPACE}), and per cluster its own KubeRay reconciliation, kubelet, Ray and GCS
 * (each GCS on a port of its own, named by the cluster's annotation). The operator reads the
 * RayClusters from one informer's cache, as controller-runtime does, rather than with a GET per pass,
 * so a thousand clusters cost the API server nothing while they are quiet.
 */
public final class Fleet implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(Fleet.class);
    /**
     * How many of a started fleet's clusters share a namespace, as a platform's teams each run a few: Rayscale bounds what
     * one namespace may have of it (clusters served, GCS calls and actuator workers at once), so a fleet in one namespace
     * would measure those bounds, not the pipeline.
     */
    public static final int CLUSTERS_PER_NAMESPACE = 20;

    private final ClusterSimulator.ApiServer api;
    private final Map<String, ClusterSimulator> clusters = new LinkedHashMap<>();
    /** Over HTTP: the clusters' own client calls the API server in process, and serves no watch. */
    private final KubernetesClient informerClient;
    private final SharedIndexInformer<RayCluster> informer;
    private final ScheduledExecutorService ticker;
    /** The GCSs' pulls of their raylets' loads, on a thread of their own: the ticks fall behind, a GCS's timer does not. */
    private final ScheduledExecutorService pulls;
    private final PassIntervals passes;

    private Fleet(Map<String, Workload> workloads, Duration tick, int threads, double speed, boolean keepsEvents, IntFunction<String> namespaces) {
        SimClock clock = new SimClock(speed);
        this.api = ClusterSimulator.fleetApiServer(keepsEvents);
        workloads.forEach((name, workload) -> clusters.put(name, ClusterSimulator.inFleet(workload, namespaces.apply(clusters.size()), name,
                clock::seconds, api)));
        this.informerClient = api.server().createClient(builder -> builder.editOrNewConfig().addToCustomHeaders(ApiFaults.SIM_HEADER, "true").endConfig());
        this.informer = informerClient.resources(RayCluster.class).inAnyNamespace().inform();
        this.ticker = Executors.newScheduledThreadPool(threads, runnable -> {
            Thread thread = new Thread(runnable, "fleet-sim");
            thread.setDaemon(true);
            return thread;
        });
        long period = tick.toMillis();
        this.passes = new PassIntervals(clusters.size());
        int index = 0;
        for (ClusterSimulator cluster : clusters.values()) {
            int slot = index;
            // Spread over the period, so that the clusters' passes do not all fall on the same instant.
            ticker.scheduleWithFixedDelay(() -> {
                passes.passed(slot);
                tick(cluster);
            }, index++ * period / clusters.size(), period, TimeUnit.MILLISECONDS);
        }
        this.pulls = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "fleet-gcs-pulls");
            thread.setDaemon(true);
            return thread;
        });
        pulls.scheduleWithFixedDelay(this::pullLoadsIfDue, 100, 100, TimeUnit.MILLISECONDS);
    }

    /**
     * Creates the clusters (by name) and starts moving them on real time, every {@code tick}, on {@code threads}
     * threads; their workloads' clocks start with {@link #begin()}.
     */
    public static Fleet start(Map<String, Workload> workloads, Duration tick, int threads) {
        return new Fleet(workloads, tick, threads, 1, false, Fleet::namespaceOf);
    }

    /** The namespace of a started fleet's {@code index}th cluster: {@code team-0}, {@code team-1}, ... each holding {@value #CLUSTERS_PER_NAMESPACE}. */
    public static String namespaceOf(int index) {
        return "team-" + index / CLUSTERS_PER_NAMESPACE;
    }

    /**
     * A few clusters for a demo: as {@link #start(Map, Duration, int)}, the simulated clock running {@code speed} simulated
     * seconds per real second, and the Events on the clusters kept (a fleet of thousands keeps none).
     */
    public static Fleet demo(Map<String, Workload> workloads, Duration tick, int threads, double speed) {
        return new Fleet(workloads, tick, threads, speed, true, index -> ClusterSimulator.NAMESPACE);
    }

    private void tick(ClusterSimulator cluster) {
        try {
            RayCluster cached = informer.getStore().getByKey(cluster.clusterId());
            if (cached != null) {
                cluster.tick(cached);
            }
        } catch (RuntimeException e) {
            if (!ticker.isShutdown()) {
                // Not at close: closing interrupts the ticks still running, and their calls fail as they should.
                LOG.warnf(e, "%s: simulator tick failed; the next one retries", cluster.clusterId());
            }
        }
    }

    private void pullLoadsIfDue() {
        try {
            clusters.values().forEach(ClusterSimulator::pullLoadsIfDue);
        } catch (RuntimeException e) {
            // One failed pass must not end the timer (a scheduled task that throws is never run again).
            LOG.warn("a pass of the simulated GCSs' load pulls failed; the next one retries", e);
        }
    }

    /** Starts every workload's clock, and the count of {@link #passIntervalsMillis()}. */
    public void begin() {
        passes.clear();
        clusters.values().forEach(ClusterSimulator::begin);
    }

    /**
     * The time between one cluster's passes (operator, kubelet, Ray) since {@link #begin()}, sorted, in milliseconds: the
     * model's tick when the simulator keeps up, more when its threads wait on the API server, and then every pod comes up
     * that much later than the model says.
     */
    public long[] passIntervalsMillis() {
        return passes.sortedMillis();
    }

    /**
     * Tells {@code listener} of every patch of a RayCluster's spec from outside the fleet (Rayscale's), as the API server
     * receives it: the cluster's id ({@code namespace/name}) and the wall clock in milliseconds.
     */
    public void onPatchSent(BiConsumer<String, Long> listener) {
        api.requests().onPatchSent(listener);
    }

    /** True once every cluster's GCS answers (its head pod runs). */
    public boolean gcsUp() {
        return clusters.values().stream().allMatch(ClusterSimulator::gcsUp);
    }

    public ClusterSimulator cluster(String name) {
        ClusterSimulator cluster = clusters.get(name);
        if (cluster == null) {
            throw new IllegalArgumentException("no cluster " + name + " in the fleet");
        }
        return cluster;
    }

    public List<ClusterSimulator> clusters() {
        return List.copyOf(clusters.values());
    }

    public String apiServerUrl() {
        return "http://127.0.0.1:" + api.server().getPort();
    }

    /** The judged invariants, summed over the fleet. */
    public ClusterSimulator.Invariants invariants() {
        long busy = 0;
        long gcs = 0;
        long operator = 0;
        long forced = 0;
        long busyForced = 0;
        for (ClusterSimulator cluster : clusters.values()) {
            ClusterSimulator.Invariants invariants = cluster.invariants();
            busy += invariants.busyDeletions();
            gcs += invariants.gcsCrashes();
            operator += invariants.operatorDeletions();
            forced += invariants.deletionsForcedByLoss();
            busyForced += invariants.busyDeletionsForcedByLoss();
        }
        return new ClusterSimulator.Invariants(busy, gcs, operator, forced, busyForced);
    }

    @Override
    public void close() {
        pulls.shutdownNow();
        ticker.shutdownNow();
        try {
            ticker.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        informer.close();
        informerClient.close();
        clusters.values().forEach(ClusterSimulator::close);
        api.client().close();
        api.server().destroy();
    }
}
