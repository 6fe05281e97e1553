package dev.rayscale.sim;

import dev.rayscale.events.PlacementStrategy;
import dev.rayscale.kuberay.Crds;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
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
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.jboss.logging.Logger;

/**
 * A Ray cluster on Kubernetes, simulated: an embedded Kubernetes API (fabric8's mock server in CRUD
 * mode, with KubeRay's CRD) holding the RayCluster and its pods, a simulated KubeRay operator and node
 * pool, a simulated Ray, and a GCS speaking Ray's real gRPC protocol. Rayscale's services talk to it
 * exactly as to a real cluster. The workload's clock starts with {@link #begin()}.
 */
public final class ClusterSimulator implements AutoCloseable {

    public static final String HEAD_GROUP = "headgroup";
    public static final String NAMESPACE = "default";
    private static final Logger LOG = Logger.getLogger(ClusterSimulator.class);
    /** The mock API server logs every request at INFO; held here so that the quieter level stays. */
    private static final java.util.logging.Logger MOCK_SERVER_LOG = quiet("io.fabric8.mockwebserver");

    private final Workload workload;
    private final String name;
    private final KubernetesMockServer server;
    private final KubernetesClient client;
    private final FakeGcs gcs;
    private final RaySim ray = new RaySim();
    private final NodePool pool;
    private final OperatorSim operator;
    private final double speed;
    private final List<Sample> samples = new CopyOnWriteArrayList<>();
    private final ScheduledExecutorService ticker = Executors.newSingleThreadScheduledExecutor(runnable -> {
        Thread thread = new Thread(runnable, "cluster-sim");
        thread.setDaemon(true);
        return thread;
    });
    private volatile SimClock clock;
    private volatile SimClock preClock = new SimClock(1);
    private int nextEvent;
    private double lastSample = -1;
    private volatile double firstDemandAt = Double.NaN;

    private ClusterSimulator(Workload workload, String name, double speed) {
        this.workload = workload;
        this.name = name;
        this.speed = speed;
        this.server = new KubernetesMockServer(new Context(), new MockWebServer(), new HashMap<>(), new RealisticApiDispatcher(), false);
        try {
            server.init(InetAddress.getByName("127.0.0.1"), 0);
        } catch (UnknownHostException e) {
            throw new IllegalStateException(e);
        }
        this.client = server.createClient();
        this.gcs = FakeGcs.start();
        this.pool = new NodePool(workload.nodePool());
        this.operator = new OperatorSim(client, NAMESPACE, name, workload, ray, pool);
        gcs.answerDrains(ray::drain);
    }

    private static java.util.logging.Logger quiet(String name) {
        java.util.logging.Logger logger = java.util.logging.Logger.getLogger(name);
        logger.setLevel(java.util.logging.Level.WARNING);
        return logger;
    }

    /** Starts the simulated cluster; the workload waits for {@link #begin()}. */
    public static ClusterSimulator start(Workload workload, String clusterName, double speed) {
        ClusterSimulator simulator = new ClusterSimulator(workload, clusterName, speed);
        simulator.create();
        simulator.ticker.scheduleWithFixedDelay(simulator::tick, 0, 50, TimeUnit.MILLISECONDS);
        return simulator;
    }

    private void create() {
        client.apiextensions().v1().customResourceDefinitions().resource(Crds.rayClusters()).create();
        client.resources(RayCluster.class).inNamespace(NAMESPACE).resource(rayCluster()).create();
        client.pods().inNamespace(NAMESPACE).resource(new PodBuilder().withNewMetadata().withName(name + "-head")
                .withNamespace(NAMESPACE).withCreationTimestamp(Instant.now().toString())
                .addToLabels("ray.io/cluster", name).addToLabels("ray.io/group", HEAD_GROUP).addToLabels("ray.io/node-type", "head")
                .endMetadata().withNewStatus().withPhase("Running").endStatus().build()).create();
        ray.register(name + "-head", HEAD_GROUP, headResources(), 0);
    }

    /** Starts the workload's clock: its events are timed from now. */
    public void begin() {
        clock = new SimClock(speed);
    }

    private void tick() {
        try {
            SimClock current = clock;
            double now = current == null ? 0 : current.seconds();
            if (current != null) {
                submitDue(now);
            }
            operator.reconcile(now);
            ray.tick(now);
            gcs.serve(ray.state(now));
            if (current != null && now - lastSample >= 1) {
                lastSample = now;
                samples.add(sample(now));
            }
        } catch (RuntimeException e) {
            LOG.warn("simulator tick failed; the next one retries", e);
        }
    }

    private void submitDue(double now) {
        List<Workload.Event> events = workload.events();
        while (nextEvent < events.size() && events.get(nextEvent).at() <= now) {
            Workload.Event event = events.get(nextEvent++);
            if (Double.isNaN(firstDemandAt)) {
                firstDemandAt = event.at();
            }
            if (event.tasks() != null) {
                ray.submitTasks(Workload.resources(event.tasks().shape()), event.tasks().count(), event.tasks().seconds());
            }
            if (event.placementGroup() != null) {
                Workload.PlacementGroup group = event.placementGroup();
                ray.submitGang(group.id(), PlacementStrategy.valueOf(group.strategy()),
                        group.bundles().stream().map(Workload::resources).toList(), group.seconds());
            }
        }
    }

    private Sample sample(double now) {
        RaySim.Stats stats = ray.stats();
        int[] pods = operator.podCounts();
        return new Sample(now, stats.pendingTasks() + stats.pendingGangs(), stats.runningTasks() + stats.runningGangBundles(),
                pods[0], pods[1], stats.registeredWorkers(), stats.busyWorkers());
    }

    /** True once every event was submitted, all work is done, and only minReplicas workers remain. */
    public boolean settled() {
        SimClock current = clock;
        if (current == null || nextEvent < workload.events().size() || !ray.stats().quiet()) {
            return false;
        }
        int minimum = workload.cluster().groups().stream().mapToInt(group -> group.min() * group.numOfHosts()).sum();
        return operator.podCounts()[0] == minimum;
    }

    public boolean timedOut() {
        SimClock current = clock;
        return current != null && current.seconds() > workload.maxSeconds();
    }

    public double seconds() {
        SimClock current = clock;
        return current == null ? 0 : current.seconds();
    }

    public String apiServerUrl() {
        return "http://127.0.0.1:" + server.getPort();
    }

    public String clusterId() {
        return NAMESPACE + "/" + name;
    }

    public KubernetesClient client() {
        return client;
    }

    public List<Sample> samples() {
        return List.copyOf(samples);
    }

    public RaySim.Stats rayStats() {
        return ray.stats();
    }

    public double firstDemandAt() {
        return firstDemandAt;
    }

    public long podsDeletedByOperatorChoice() {
        return operator.podsDeletedByOperator();
    }

    @Override
    public void close() {
        ticker.shutdownNow();
        try {
            ticker.awaitTermination(2, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        gcs.close();
        client.close();
        server.destroy();
    }

    private dev.rayscale.events.Resources headResources() {
        return dev.rayscale.events.Resources.of("CPU", BigDecimal.valueOf(workload.cluster().headCpus()).toPlainString(),
                "memory", "2147483648");
    }

    private RayCluster rayCluster() {
        RayCluster cluster = new RayCluster();
        cluster.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace(NAMESPACE)
                .addToAnnotations("rayscale.dev/autoscaling", "enabled")
                .addToAnnotations("rayscale.dev/gcs-address", gcs.address()).build());
        RayClusterSpec spec = new RayClusterSpec();
        spec.setRayVersion("2.41.0");
        spec.setEnableInTreeAutoscaling(false);
        AutoscalerOptions options = new AutoscalerOptions();
        options.setUpscalingMode(AutoscalerOptions.UpscalingMode.valueOf(
                workload.cluster().upscalingMode() == null ? "DEFAULT" : workload.cluster().upscalingMode().toUpperCase()));
        options.setIdleTimeoutSeconds(workload.cluster().idleTimeoutSeconds() == null ? 60 : workload.cluster().idleTimeoutSeconds());
        spec.setAutoscalerOptions(options);
        HeadGroupSpec head = new HeadGroupSpec();
        head.setRayStartParams(new HashMap<>(Map.of("num-cpus", BigDecimal.valueOf(workload.cluster().headCpus()).toPlainString(),
                "memory", "2147483648")));
        spec.setHeadGroupSpec(head);
        List<WorkerGroupSpecs> groups = new ArrayList<>();
        for (Workload.Group group : workload.cluster().groups()) {
            WorkerGroupSpecs spec1 = new WorkerGroupSpecs();
            spec1.setGroupName(group.name());
            spec1.setReplicas(group.replicas() == null ? group.min() : group.replicas());
            spec1.setMinReplicas(group.min());
            spec1.setMaxReplicas(group.max());
            spec1.setNumOfHosts(group.numOfHosts());
            spec1.setRayStartParams(rayStartParams(group));
            spec1.setScaleStrategy(new ScaleStrategy());
            groups.add(spec1);
        }
        spec.setWorkerGroupSpecs(groups);
        cluster.setSpec(spec);
        return cluster;
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
        return params;
    }

    private static void put(Map<String, String> params, String key, BigDecimal value) {
        if (value != null) {
            params.put(key, value.toPlainString());
        }
    }
}
