package dev.rayscale.sim;

import dev.rayscale.events.Annotations;
import dev.rayscale.events.PlacementStrategy;
import dev.rayscale.events.Resources;
import dev.rayscale.gcs.proto.ClusterResourceState;
import dev.rayscale.gcs.proto.DrainNodeReply;
import dev.rayscale.gcs.proto.DrainNodeRequest;
import dev.rayscale.kuberay.Crds;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.PodTemplateSpecBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.ray.v1.RayCluster;
import io.ray.v1.RayClusterSpec;
import io.ray.v1.rayclusterspec.AutoscalerOptions;
import io.ray.v1.rayclusterspec.HeadGroupSpec;
import io.ray.v1.rayclusterspec.WorkerGroupSpecs;
import io.ray.v1.rayclusterspec.workergroupspecs.ScaleStrategy;
import java.math.BigDecimal;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.DoubleSupplier;
import java.util.function.LongConsumer;
import java.util.logging.Level;
import java.util.stream.Collectors;
import org.jboss.logging.Logger;

/**
 * A Ray cluster on Kubernetes, simulated: an embedded Kubernetes API (fabric8's mock server in CRUD
 * mode, with KubeRay's CRD) holding the RayCluster and its pods, the KubeRay operator
 * ({@link KubeRayOperator}), the kubelet and node pool ({@link Kubelet}, {@link NodePool}), Ray
 * ({@link RaySim}) and its GCS speaking Ray's real gRPC protocol ({@link GcsServer}). Rayscale's
 * services talk to it exactly as to a real cluster. The cluster runs from {@link #start}; the
 * workload's clock starts with {@link #begin()}.
 *
 * <p>It keeps the invariants a run is judged by ({@link #invariants()}): pods deleted, by anyone,
 * while their raylet ran work; GCS processes that exited because a client's read tripped their check;
 * pods the operator deleted by its own choice.
 */
public final class ClusterSimulator implements AutoCloseable {

    public static final String HEAD_GROUP = "headgroup";
    /** The namespace of a cluster simulated on its own (a fleet spreads its clusters over several, {@link Fleet}). */
    public static final String NAMESPACE = "default";
    private static final Logger LOG = Logger.getLogger(ClusterSimulator.class);
    /** The mock API server logs every request at INFO; held here so that the quieter level stays. */
    private static final java.util.logging.Logger MOCK_SERVER_LOG = quiet("io.fabric8.mockwebserver");

    private final Workload workload;
    private final String name;
    private final String namespace;
    private final KubernetesMockServer server;
    private final KubernetesClient client;
    private final DoubleSupplier clock;
    private final RaySim ray;
    private final GcsServer gcs;
    private final Kubelet kubelet;
    private final KubeRayOperator operator;
    /** Null unless the workload has a GitOps tool re-apply the cluster's manifest. */
    private final GitOpsWriter gitOps;
    /** Null unless a RayService owns the cluster. */
    private final RayServiceController rayService;
    /** Null unless a RayJob owns the cluster. */
    private final RayJobController rayJob;
    private final ApiFaults apiFaults;
    /** False for a cluster of a {@link Fleet}, whose API server outlives it. */
    private final boolean ownsApiServer;
    private final List<Sample> samples = new CopyOnWriteArrayList<>();
    private final List<String> happenings = new CopyOnWriteArrayList<>();
    /** Moves a cluster started on real time ({@link #start}); null for a manual or fleet cluster, which others move. */
    private ScheduledExecutorService ticker;
    /** False for a cluster of a {@link Fleet}: a thousand clusters' per-second samples would be kept and never read. */
    private final boolean sampled;
    private volatile double beganAt = Double.NaN;
    private int nextEvent;
    /** Pod faults whose targets are not there yet; each tries again every tick until its window closes. */
    private final List<Runnable> waitingFaults = new CopyOnWriteArrayList<>();
    private double lastSample = -1;
    private volatile double firstDemandAt = Double.NaN;

    private ClusterSimulator(Workload workload, String name, DoubleSupplier clock) {
        this(workload, NAMESPACE, name, clock, apiServer(new ApiFaults()), true);
    }

    private ClusterSimulator(Workload workload, String namespace, String name, DoubleSupplier clock, ApiServer api, boolean sampled) {
        this.workload = workload;
        this.sampled = sampled;
        this.namespace = namespace;
        this.name = name;
        this.clock = clock;
        this.server = api.server();
        this.client = api.client();
        this.apiFaults = api.faults();
        this.ownsApiServer = api.owned();
        Kubelet[] pods = new Kubelet[1];
        Workload.Versions versions = workload.cluster().versions();
        this.ray = new RaySim(clock, (pod, cleanly) -> pods[0].rayProcessExited(pod, cleanly), name.hashCode(), versions.rayRelease(),
                versions.kubeRayRelease().setsNodeEnv());
        this.kubelet = new Kubelet(client, api.writes(), namespace, name, workload, ray, new NodePool(workload.nodePool()), clock, name.hashCode() * 31L);
        pods[0] = kubelet;
        this.gcs = new GcsServer(ray, clock);
        this.operator = new KubeRayOperator(client, api.writes(), namespace, name, kubelet, api.requests(), clock, this::happened,
                versions.kubeRayRelease());
        this.gitOps = workload.gitOps() == null ? null : new GitOpsWriter(workload, client, namespace, name, this::happened);
        this.rayService = workload.rayService() == null ? null
                : new RayServiceController(client, namespace, workload.rayService().name(), name, this::happened);
        this.rayJob = workload.rayJob() == null ? null : new RayJobController(client, namespace, workload.rayJob(), name, this::happened);
        if (rayService != null && rayJob != null) {
            throw new IllegalArgumentException("workload " + workload.name() + " names a RayService and a RayJob: a RayCluster has one "
                    + "controller owner");
        }
        if (rayService == null && workload.events().stream().anyMatch(event -> event.appendGroup() != null)) {
            throw new IllegalArgumentException("workload " + workload.name() + " appends a worker group to a RayService, and names none "
                    + "(rayService: {name: ...})");
        }
    }

    /** The Kubernetes API a simulated cluster lives in: its own, or a {@link Fleet}'s shared by many clusters. */
    public record ApiServer(KubernetesMockServer server, KubernetesClient client, ApiFaults faults, RayscaleRequests requests, OwnWrites writes,
            boolean owned) {
    }

    /** An embedded API server in CRUD mode with KubeRay's CRD, and a client for the simulated clusters' own parts. */
    static ApiServer apiServer(ApiFaults faults) {
        return apiServer(new RealisticApiDispatcher(faults), faults);
    }

    /** A fleet's API server: as {@link #apiServer(ApiFaults)}, keeping Events only if told ({@link RealisticApiDispatcher}). */
    public static ApiServer fleetApiServer(boolean keepsEvents) {
        ApiFaults faults = new ApiFaults();
        return apiServer(new RealisticApiDispatcher(faults, keepsEvents), faults);
    }

    private static ApiServer apiServer(RealisticApiDispatcher dispatcher, ApiFaults faults) {
        KubernetesMockServer server = new KubernetesMockServer(new Context(), new MockWebServer(), new HashMap<>(), dispatcher, false);
        try {
            server.init(InetAddress.getByName("127.0.0.1"), 0);
        } catch (UnknownHostException e) {
            throw new IllegalStateException(e);
        }
        // The cluster's own parts (operator, kubelet) call the dispatcher in process, not through the mock's one event loop
        // (InProcessHttpClient), and are marked so that injected API faults spare them.
        KubernetesClient client = server.createClient(builder -> builder.withHttpClientFactory(InProcessHttpClient.factory(dispatcher))
                .editOrNewConfig().addToCustomHeaders(ApiFaults.SIM_HEADER, "true").endConfig());
        client.apiextensions().v1().customResourceDefinitions().resource(Crds.rayClusters()).create();
        return new ApiServer(server, client, faults, dispatcher.requests(), new OwnWrites(dispatcher), true);
    }

    private static java.util.logging.Logger quiet(String name) {
        java.util.logging.Logger logger = java.util.logging.Logger.getLogger(name);
        logger.setLevel(Level.WARNING);
        return logger;
    }

    /** Starts the simulated cluster (the operator creates the head, whose GCS comes up); the workload waits for {@link #begin()}. */
    public static ClusterSimulator start(Workload workload, String clusterName, double speed) {
        SimClock clock = new SimClock(speed);
        ClusterSimulator simulator = new ClusterSimulator(workload, clusterName, clock::seconds);
        simulator.create();
        simulator.ticker = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "cluster-sim");
            thread.setDaemon(true);
            return thread;
        });
        simulator.ticker.scheduleWithFixedDelay(simulator::tickSafely, 0, 50, TimeUnit.MILLISECONDS);
        return simulator;
    }

    /**
     * A simulated cluster on a clock the caller moves ({@link #advance}), for tests that check the model
     * fact by fact: nothing happens between two calls.
     */
    public static ClusterSimulator manual(Workload workload, String clusterName, ManualClock clock) {
        ClusterSimulator simulator = new ClusterSimulator(workload, clusterName, clock::seconds);
        simulator.create();
        return simulator;
    }

    /** Moves a manual clock on by {@code seconds}, in steps of {@code step}, the simulation acting after each. */
    public void advance(ManualClock manual, double seconds, double step) {
        double end = manual.seconds() + seconds;
        while (manual.seconds() < end - 1e-9) {
            manual.set(Math.min(end, manual.seconds() + step));
            tick();
        }
    }

    /**
     * As {@link #manual}, for a long replay in simulated time: it keeps no per-second samples and its API server keeps no
     * Events (as if they expired at once), so that its memory does not grow with the time simulated.
     */
    public static ClusterSimulator replay(Workload workload, String clusterName, ManualClock clock) {
        ApiFaults faults = new ApiFaults();
        ClusterSimulator simulator = new ClusterSimulator(workload, NAMESPACE, clusterName, clock::seconds,
                apiServer(new RealisticApiDispatcher(faults, false), faults), false);
        simulator.create();
        return simulator;
    }

    /**
     * A cluster of a {@link Fleet}: its RayCluster in the fleet's API server; the fleet moves it on
     * ({@link #tick(RayCluster)}), handing the operator the RayCluster from its informer's cache as
     * controller-runtime does.
     */
    static ClusterSimulator inFleet(Workload workload, String namespace, String clusterName, DoubleSupplier clock, ApiServer shared) {
        ClusterSimulator simulator = new ClusterSimulator(workload, namespace, clusterName, clock,
                new ApiServer(shared.server(), shared.client(), shared.faults(), shared.requests(), shared.writes(), false), false);
        simulator.create();
        return simulator;
    }

    private void create() {
        RayCluster cluster = rayCluster();
        RayCluster owned = rayService != null ? rayService.create(cluster) : rayJob != null ? rayJob.create(cluster) : cluster;
        client.resources(RayCluster.class).inNamespace(namespace).resource(owned).create();
    }

    /** Starts the workload's clock: its events are timed from now. */
    public void begin() {
        beganAt = clock.getAsDouble();
    }

    /**
     * Submits {@code count} tasks of {@code shape}, each running {@code seconds}, now. The GCS learns of them at its next
     * pull of the raylets' loads (fact A3.16); {@code pulled} is then told, on the simulator's thread, the GCS state version
     * read last before that pull: the first read with a higher {@code cluster_resource_state_version} is the first that
     * sees them (every read bumps the version, fact A1.2).
     */
    public void submitTasks(Resources shape, long count, double seconds, LongConsumer pulled) {
        firstDemandAt = Double.isNaN(firstDemandAt) ? workloadSeconds() : firstDemandAt;
        ray.submitTasks(shape, count, seconds, pulled);
    }

    /** Worker pods that are not terminating (each can run work, now or once started), and tasks queued or running. */
    public record Occupancy(int workerPods, long tasks) {
    }

    public Occupancy occupancy() {
        int pods = (int) kubelet.all().stream().filter(pod -> !pod.head() && !pod.terminating).count();
        RaySim.Stats stats = ray.stats();
        return new Occupancy(pods, stats.pendingTasks() + stats.runningTasks());
    }

    /** True once the GCS answers (the head pod runs). */
    public boolean gcsUp() {
        return ray.gcsUp();
    }

    /** One step of the whole cluster: the workload's due events, the operator, the kubelet, Ray. */
    public void tick() {
        tick(null);
    }

    /** As {@link #tick()}, the operator reconciling {@code cached} (a fleet's informer's copy) instead of reading the RayCluster. */
    void tick(RayCluster cached) {
        double now = workloadSeconds();
        if (!Double.isNaN(now)) {
            playDue(now);
            if (gitOps != null) {
                gitOps.tick(now);
            }
            if (rayJob != null) {
                rayJob.reconcile(now);
            }
        }
        if (rayService != null) {
            rayService.reconcile();
        }
        if (cached == null) {
            operator.reconcile();
        } else {
            operator.reconcile(cached);
        }
        kubelet.tick();
        ray.tick();
        gcs.faults().expire();
        if (sampled && !Double.isNaN(now) && now - lastSample >= 1) {
            lastSample = now;
            samples.add(sample(now));
        }
    }

    /** The GCS's pull of the raylets' loads, if due (fact A3.16): a fleet runs it apart from the ticks it falls behind on. */
    void pullLoadsIfDue() {
        ray.pullLoadsIfDue();
    }

    private void tickSafely() {
        try {
            tick();
        } catch (RuntimeException e) {
            LOG.warn("simulator tick failed; the next one retries", e);
        }
    }

    private double workloadSeconds() {
        double began = beganAt;
        return Double.isNaN(began) ? Double.NaN : clock.getAsDouble() - began;
    }

    private void playDue(double now) {
        List<Workload.Event> events = workload.events();
        while (nextEvent < events.size() && events.get(nextEvent).at() <= now) {
            play(events.get(nextEvent++));
        }
        List<Runnable> retries = List.copyOf(waitingFaults);
        waitingFaults.clear();
        retries.forEach(Runnable::run);
    }

    /** Applies {@code fault} to the pods the selection finds now, or waits for some within its window. */
    private void onPods(Workload.Event event, Workload.PodSelection selection, Consumer<String> fault) {
        Runnable attempt = new Runnable() {
            @Override
            public void run() {
                List<String> pods = select(selection);
                if (pods.isEmpty() && workloadSeconds() < event.at() + selection.window()) {
                    waitingFaults.add(this);
                    return;
                }
                pods.forEach(fault);
            }
        };
        attempt.run();
    }

    private void play(Workload.Event event) {
        if (event.tasks() != null) {
            firstDemandAt = Double.isNaN(firstDemandAt) ? event.at() : firstDemandAt;
            ray.submitTasks(Workload.resources(event.tasks().shape()), event.tasks().count(), event.tasks().seconds(), event.tasks().labelSelector(),
                    version -> { });
        }
        if (event.placementGroup() != null) {
            firstDemandAt = Double.isNaN(firstDemandAt) ? event.at() : firstDemandAt;
            Workload.PlacementGroup group = event.placementGroup();
            ray.submitGang(group.id(), PlacementStrategy.valueOf(group.strategy()),
                    group.bundles().stream().map(Workload::resources).toList(), group.bundleLabelSelectors(), group.seconds());
        }
        if (event.requestResources() != null) {
            Workload.RequestResources request = event.requestResources();
            firstDemandAt = Double.isNaN(firstDemandAt) && request.numCpus() + request.bundles().size() > 0 ? event.at() : firstDemandAt;
            happened("a driver (" + request.path().name().toLowerCase(Locale.ROOT) + " client path) calls request_resources(num_cpus="
                    + request.numCpus() + (request.bundles().isEmpty() ? "" : ", bundles=" + request.bundles()) + ")");
            ray.requestResources(request.numCpus(), request.bundles().stream().map(Workload::resources).toList(), request.path());
        }
        if (Boolean.TRUE.equals(event.restartHead())) {
            happened("the GCS process exits; the head's container restarts");
            ray.crashGcs();
        }
        if (event.restartRaylets() != null) {
            onPods(event, event.restartRaylets(), pod -> {
                happened("the raylet in " + pod + " crashes; its container restarts");
                ray.crashRaylet(pod);
            });
        }
        if (event.evict() != null) {
            onPods(event, event.evict(), pod -> {
                happened(pod + " is evicted");
                kubelet.delete(pod);
            });
        }
        if (event.losePods() != null) {
            onPods(event, event.losePods(), pod -> {
                happened(pod + " is lost with its node");
                kubelet.forceDelete(pod);
            });
        }
        if (event.appendGroup() != null) {
            rayService.appendGroup(event.appendGroup());
        }
        if (event.editGroup() != null) {
            Workload.GroupEdit edit = event.editGroup();
            happened("the cluster's owner sets " + edit.group() + (edit.minReplicas() == null ? "" : " minReplicas " + edit.minReplicas())
                    + (edit.maxReplicas() == null ? "" : " maxReplicas " + edit.maxReplicas()));
            Edits.retryingConflicts(client.resources(RayCluster.class).inNamespace(namespace).withName(name), cluster -> {
                cluster.getSpec().getWorkerGroupSpecs().stream().filter(group -> group.getGroupName().equals(edit.group())).forEach(group -> {
                    if (edit.minReplicas() != null) {
                        group.setMinReplicas(edit.minReplicas());
                    }
                    if (edit.maxReplicas() != null) {
                        group.setMaxReplicas(edit.maxReplicas());
                    }
                });
                return cluster;
            });
        }
        if (event.suspend() != null) {
            happened(event.suspend() ? "the cluster is suspended" : "the cluster is resumed");
            client.resources(RayCluster.class).inNamespace(namespace).withName(name)
                    .patch(PatchContext.of(PatchType.JSON_MERGE), "{\"spec\":{\"suspend\":" + event.suspend() + "}}");
        }
    }

    private void happened(String what) {
        happenings.add(String.format(Locale.ROOT, "[%5.0fs] %s", workloadSeconds(), what));
    }

    /** Worker pods of the selection's group in the selection's state, by name. */
    private List<String> select(Workload.PodSelection selection) {
        List<String> chosen = new ArrayList<>();
        for (Kubelet.SimPod pod : kubelet.list(selection.group())) {
            if (chosen.size() >= selection.count() || pod.terminating) {
                continue;
            }
            boolean registered = pod.containerRunning;
            boolean busy = ray.busy(pod.name);
            boolean matches = switch (selection.state() == null ? "idle" : selection.state()) {
                case "busy" -> busy;
                case "starting" -> !registered;
                default -> registered && !busy;
            };
            if (matches) {
                chosen.add(pod.name);
            }
        }
        return chosen;
    }

    private Sample sample(double now) {
        RaySim.Stats stats = ray.stats();
        int pods = 0;
        int waiting = 0;
        for (Kubelet.SimPod pod : kubelet.all()) {
            if (!pod.head() && !pod.terminating) {
                pods++;
                waiting += pod.containerRunning ? 0 : 1;
            }
        }
        return new Sample(now, stats.pendingTasks() + stats.pendingGangs(), stats.runningTasks() + stats.runningGangBundles(),
                pods, waiting, stats.registeredWorkers(), stats.busyWorkers());
    }

    /** True once every event was played, all work is done, and only minReplicas worker pods remain. */
    public boolean settled() {
        if (!workDone()) {
            return false;
        }
        int minimum = workload.cluster().groups().stream().mapToInt(group -> group.min() * group.numOfHosts()).sum();
        return kubelet.all().stream().filter(pod -> !pod.head()).count() == minimum;
    }

    /**
     * True once every event was played, all work is done, the workload's GitOps tool (if any) has stopped and its RayJob (if
     * any) has ended, whatever the cluster's size: a cluster the tool may still resize is not settled, even at its minimum
     * for a moment.
     */
    public boolean workDone() {
        return !Double.isNaN(beganAt) && nextEvent >= workload.events().size() && waitingFaults.isEmpty() && ray.stats().quiet()
                && (gitOps == null || gitOps.stopped(workloadSeconds())) && (rayJob == null || rayJob.workersDeleted());
    }

    /** How many times the workload's GitOps tool re-applied the manifest over a change (0 without one). */
    public int gitOpsWrites() {
        return gitOps == null ? 0 : gitOps.writes();
    }

    /** When the workload's GitOps tool first re-applied the manifest over a change (the real clock), or null. */
    public Instant gitOpsFirstWrite() {
        return gitOps == null ? null : gitOps.firstWrite();
    }

    /** The messages of the Warning Events of {@code reason} on the cluster's RayCluster. */
    public List<String> warningMessages(String reason) {
        return client.v1().events().inNamespace(namespace).list().getItems().stream()
                .filter(event -> name.equals(event.getInvolvedObject().getName()) && "Warning".equals(event.getType())
                        && reason.equals(event.getReason()))
                .map(Event::getMessage).toList();
    }

    /** The reasons of the Warning Events on the cluster's RayCluster (kept unless its API server is a fleet's that keeps none). */
    public List<String> warnings() {
        return client.v1().events().inNamespace(namespace).list().getItems().stream()
                .filter(event -> name.equals(event.getInvolvedObject().getName()) && "Warning".equals(event.getType()))
                .map(Event::getReason).toList();
    }

    /** Worker pods that are not terminating. */
    public int workerPods() {
        return (int) kubelet.all().stream().filter(pod -> !pod.head() && !pod.terminating).count();
    }

    /** Simulated seconds since the workload began. */
    public double seconds() {
        double now = workloadSeconds();
        return Double.isNaN(now) ? 0 : now;
    }

    public String apiServerUrl() {
        return "http://127.0.0.1:" + server.getPort();
    }

    public String clusterId() {
        return namespace + "/" + name;
    }

    public String namespace() {
        return namespace;
    }

    public String name() {
        return name;
    }

    /**
     * The GCS's {@code GetClusterResourceState}, answered in process for a caller that moves the clock itself (a replay in
     * simulated time): as over gRPC, each read bumps the version (fact A1.2) and a read of a version the GCS never gave
     * brings it down (A1.1).
     */
    public ClusterResourceState readGcs(long lastSeenVersion) {
        return ray.read(lastSeenVersion);
    }

    /** The GCS's {@code DrainNode}, answered in process as {@link #readGcs} is: a busy node's drain is refused. */
    public DrainNodeReply drainGcs(DrainNodeRequest request) {
        return ray.drain(request);
    }

    public KubernetesClient client() {
        return client;
    }

    public List<Sample> samples() {
        return List.copyOf(samples);
    }

    /** The faults the workload injected, with their times. */
    public List<String> happenings() {
        return List.copyOf(happenings);
    }

    public RaySim.Stats rayStats() {
        return ray.stats();
    }

    public double firstDemandAt() {
        return firstDemandAt;
    }

    /** What {@code ray status} prints in this cluster now, run as a command. */
    public String rayStatus() {
        return ray.rayStatus(Instant.now());
    }

    /** What {@code ray status} prints in this cluster now in a client taking {@code path}. */
    public String rayStatus(ClientPath path) {
        return ray.rayStatus(Instant.now(), path);
    }

    RaySim ray() {
        return ray;
    }

    Kubelet kubelet() {
        return kubelet;
    }

    /** Faults on the RayCluster reads and writes of clients other than the simulated cluster's own parts. */
    public ApiFaults apiFaults() {
        return apiFaults;
    }

    /** Faults between the GCS and its clients. */
    public GcsFaults gcsFaults() {
        return gcs.faults();
    }

    /** {@code host:port} of the cluster's GCS. */
    public String gcsAddress() {
        return gcs.address();
    }

    /** The judged invariants so far. */
    public Invariants invariants() {
        return new Invariants(kubelet.busyDeletions(), ray.gcsExitsCausedByClients(), operator.chosenDeletions(),
                operator.deletionsForcedByLoss(), kubelet.busyDeletionsForcedByLoss());
    }

    /**
     * @param busyDeletions pods deleted, by anyone, while their raylet ran work, but those forced by a loss
     * @param gcsCrashes GCS processes that exited because a client's read tripped their check (fact A1.1)
     * @param operatorDeletions pods the KubeRay operator chose to delete itself (fact B6.27), but those forced by a loss
     * @param deletionsForcedByLoss pods the operator chose to delete because a pod the last patch named was lost after
     *     Rayscale read the pods for that patch and replaced before the operator saw it named ({@link KubeRayOperator}):
     *     a race no client can close while in-tree autoscaling is off; not broken invariants, but told
     * @param busyDeletionsForcedByLoss those of them that ran work
     */
    public record Invariants(long busyDeletions, long gcsCrashes, long operatorDeletions, long deletionsForcedByLoss,
            long busyDeletionsForcedByLoss) {

        public boolean held() {
            return busyDeletions == 0 && gcsCrashes == 0 && operatorDeletions == 0;
        }
    }

    @Override
    public void close() {
        if (ticker != null) {
            // The tick under way finishes (interrupted, its API call failed and was logged as a fault); no other starts.
            ticker.shutdown();
            try {
                if (!ticker.awaitTermination(2, TimeUnit.SECONDS)) {
                    ticker.shutdownNow();
                }
            } catch (InterruptedException e) {
                ticker.shutdownNow();
                Thread.currentThread().interrupt();
            }
        }
        gcs.close();
        if (ownsApiServer) {
            client.close();
            server.destroy();
        }
    }

    private RayCluster rayCluster() {
        RayCluster cluster = new RayCluster();
        cluster.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace(namespace)
                .addToAnnotations(workload.cluster().annotations())
                .addToAnnotations(Annotations.AUTOSCALING, Annotations.AUTOSCALING_ENABLED)
                .addToAnnotations("rayscale.dev/gcs-address", gcs.address()).build());
        RayClusterSpec spec = new RayClusterSpec();
        Workload.Versions versions = workload.cluster().versions();
        if (versions.rayVersionInSpec()) {
            spec.setRayVersion(versions.ray());
        }
        spec.setEnableInTreeAutoscaling(false);
        AutoscalerOptions options = new AutoscalerOptions();
        options.setUpscalingMode(AutoscalerOptions.UpscalingMode.valueOf(
                workload.cluster().upscalingMode() == null ? "DEFAULT" : workload.cluster().upscalingMode().toUpperCase()));
        options.setIdleTimeoutSeconds(workload.cluster().idleTimeoutSeconds() == null ? 60 : workload.cluster().idleTimeoutSeconds());
        spec.setAutoscalerOptions(options);
        HeadGroupSpec head = new HeadGroupSpec();
        head.setRayStartParams(new HashMap<>(Map.of("num-cpus", BigDecimal.valueOf(workload.cluster().headCpus()).toPlainString(),
                "memory", "2147483648")));
        head.setTemplate(new PodTemplateSpecBuilder().withNewSpec().addNewContainer().withName("ray-head").withImage(Kubelet.image(workload))
                .endContainer().endSpec().build());
        spec.setHeadGroupSpec(head);
        List<WorkerGroupSpecs> groups = new ArrayList<>();
        for (Workload.Group group : workload.cluster().groups()) {
            groups.add(workerGroup(group));
        }
        spec.setWorkerGroupSpecs(groups);
        cluster.setSpec(spec);
        return cluster;
    }

    /** A worker group of the RayCluster, as the workload describes it. */
    static WorkerGroupSpecs workerGroup(Workload.Group group) {
        WorkerGroupSpecs spec = new WorkerGroupSpecs();
        spec.setGroupName(group.name());
        spec.setReplicas(group.replicas() == null ? group.min() : group.replicas());
        spec.setMinReplicas(group.min());
        spec.setMaxReplicas(group.max());
        spec.setNumOfHosts(group.numOfHosts());
        spec.setRayStartParams(rayStartParams(group));
        spec.setScaleStrategy(new ScaleStrategy());
        return spec;
    }

    /** The group's node resources as Ray start parameters: num-cpus, num-gpus, memory, and the rest as custom resources. */
    private static Map<String, String> rayStartParams(Workload.Group group) {
        Map<String, String> params = new HashMap<>();
        Map<String, BigDecimal> custom = new HashMap<>(group.resources());
        put(params, "num-cpus", custom.remove("CPU"));
        put(params, "num-gpus", custom.remove("GPU"));
        put(params, "memory", custom.remove("memory"));
        if (!custom.isEmpty()) {
            params.put("resources", custom.entrySet().stream().map(e -> "\"" + e.getKey() + "\": " + e.getValue().toPlainString())
                    .collect(Collectors.joining(", ", "{", "}")));
        }
        if (!group.labels().isEmpty()) {
            params.put("labels", group.labels().entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).collect(Collectors.joining(",")));
        }
        return params;
    }

    private static void put(Map<String, String> params, String key, BigDecimal value) {
        if (value != null) {
            params.put(key, value.toPlainString());
        }
    }
}
