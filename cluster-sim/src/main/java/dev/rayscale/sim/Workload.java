package dev.rayscale.sim;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.rayscale.events.Quantity;
import dev.rayscale.events.Resources;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * A scenario for the simulated cluster (YAML or JSON): the RayCluster to create, the Kubernetes node
 * pool its pods wait for, and a trace of what happens over time — work submitted, and the faults a
 * real cluster sees (a GCS restart, raylets restarting, pods evicted or lost, the cluster suspended).
 *
 * @param speed default simulated seconds per real second
 * @param podStartSeconds from a pod being scheduled on a node to its Ray node registering
 * @param containerRestartSeconds from a container's end to its restart (restartPolicy Always); default 10
 * @param terminationSeconds a deleted pod's grace period, during which it is terminating; default 2
 * @param nodePool absent: every pod is scheduled at once; present: pods wait for free node slots, and a
 *     simulated node autoscaler adds nodes after its own delay
 * @param maxSeconds the run stops after this much simulated time even if not settled
 * @param gitOps absent: no one but Rayscale writes the worker groups' replicas; present: a GitOps tool re-applies the
 *     RayCluster's manifest (each group's initial {@code replicas}) on a schedule
 * @param rayService absent: the RayCluster has no owner; present: a RayService owns it, and KubeRay's RayService controller
 *     builds it and rebuilds it ({@link RayServiceController})
 * @param rayJob absent: no RayJob owns the cluster; present: a RayJob does, and KubeRay's RayJob controller builds it and,
 *     once the job ends, suspends its worker groups ({@link RayJobController})
 */
public record Workload(
        String name,
        String description,
        double speed,
        Cluster cluster,
        NodePool nodePool,
        double podStartSeconds,
        Double containerRestartSeconds,
        Double terminationSeconds,
        double maxSeconds,
        List<Event> events,
        GitOps gitOps,
        RayServiceOwner rayService,
        RayJobOwner rayJob) {

    public Workload {
        containerRestartSeconds = containerRestartSeconds == null ? 10.0 : containerRestartSeconds;
        terminationSeconds = terminationSeconds == null ? 2.0 : terminationSeconds;
        events = events == null ? List.of() : List.copyOf(events);
    }

    /**
     * The RayCluster: a head that runs nothing (num-cpus 0 unless headCpus) and worker groups.
     *
     * @param restartPolicy the pods' restartPolicy: Always (default: KubeRay keeps the template's when its own
     *     autoscaler is off) or Never
     * @param quota a ResourceQuota that limits one group's pods: creations beyond it are refused
     * @param versions the Ray and KubeRay the cluster runs; absent: the current ones
     * @param annotations what the cluster's owner annotates its RayCluster with, beside the opt-in
     */
    public record Cluster(double headCpus, String upscalingMode, Integer idleTimeoutSeconds, List<Group> groups, String restartPolicy,
            Quota quota, Versions versions, Map<String, String> annotations) {

        public Cluster {
            versions = versions == null ? Versions.CURRENT : versions.orCurrent();
            annotations = annotations == null ? Map.of() : Map.copyOf(annotations);
        }

        public Cluster(double headCpus, String upscalingMode, Integer idleTimeoutSeconds, List<Group> groups, String restartPolicy, Quota quota) {
            this(headCpus, upscalingMode, idleTimeoutSeconds, groups, restartPolicy, quota, null, null);
        }

        public Cluster withUpscalingMode(String mode) {
            return new Cluster(headCpus, mode, idleTimeoutSeconds, groups, restartPolicy, quota, versions, annotations);
        }

        public Cluster withIdleTimeoutSeconds(Integer seconds) {
            return new Cluster(headCpus, upscalingMode, seconds, groups, restartPolicy, quota, versions, annotations);
        }

        public Cluster withGroups(List<Group> changed) {
            return new Cluster(headCpus, upscalingMode, idleTimeoutSeconds, changed, restartPolicy, quota, versions, annotations);
        }

        public Cluster withVersions(Versions changed) {
            return new Cluster(headCpus, upscalingMode, idleTimeoutSeconds, groups, restartPolicy, quota, changed, annotations);
        }

        /** With {@code more} annotations added to those it has. */
        public Cluster withAnnotations(Map<String, String> more) {
            Map<String, String> all = new HashMap<>(annotations);
            all.putAll(more);
            return new Cluster(headCpus, upscalingMode, idleTimeoutSeconds, groups, restartPolicy, quota, versions, all);
        }
    }

    /**
     * The Ray and KubeRay a cluster runs ({@link RayRelease}, {@link KubeRayRelease}).
     *
     * @param ray the Ray version: its head image's tag, the GCS's record, and {@code spec.rayVersion} unless told otherwise
     * @param kubeRay the KubeRay version that makes its pods
     * @param rayVersionInSpec whether the RayCluster says {@code spec.rayVersion} (KubeRay does not require it); default true
     */
    public record Versions(String ray, String kubeRay, Boolean rayVersionInSpec) {

        public static final Versions CURRENT = new Versions(RayRelease.CURRENT, KubeRayRelease.CURRENT, true);

        Versions orCurrent() {
            return new Versions(ray == null ? RayRelease.CURRENT : ray, kubeRay == null ? KubeRayRelease.CURRENT : kubeRay,
                    rayVersionInSpec == null || rayVersionInSpec);
        }

        public RayRelease rayRelease() {
            return RayRelease.of(ray);
        }

        public KubeRayRelease kubeRayRelease() {
            return KubeRayRelease.of(kubeRay);
        }
    }

    /** A worker group; {@code resources} are per node (CPU, GPU, memory in bytes, custom). */
    public record Group(String name, Map<String, BigDecimal> resources, int min, int max, Integer hosts, Integer replicas,
            Map<String, String> labels) {

        public Resources shape() {
            return Workload.resources(resources);
        }

        public int numOfHosts() {
            return hosts == null ? 1 : hosts;
        }

        @Override
        public Map<String, String> labels() {
            return labels == null ? Map.of() : labels;
        }
    }

    /**
     * A GitOps tool that syncs the cluster's manifest every {@code everySeconds}, from that time on, until
     * {@code untilSeconds} (absent: for ever; present: its team then told it to leave replicas alone), writing as
     * {@code manager} ({@link GitOpsWriter}).
     */
    public record GitOps(String manager, double everySeconds, Double untilSeconds) {
    }

    /** The RayService, named {@code name}, that owns the cluster. */
    public record RayServiceOwner(String name) {
    }

    /** The RayJob, named {@code name}, that owns the cluster; its job ends at {@code endsAtSeconds} (deletion policy DeleteWorkers). */
    public record RayJobOwner(String name, double endsAtSeconds) {
    }

    /** At most {@code maxPods} pods of {@code group} may exist. */
    public record Quota(String group, int maxPods) {
    }

    /**
     * @param initialNodes Kubernetes nodes ready at the start
     * @param podsPerNode worker pods one node holds
     * @param maxNodes the node autoscaler's limit
     * @param provisionSeconds how long the node autoscaler takes to add a node
     */
    public record NodePool(int initialNodes, int podsPerNode, int maxNodes, double provisionSeconds) {
    }

    /**
     * At {@code at} seconds, one or more of: submit tasks or a placement group; call {@code request_resources}
     * ({@code requestResources}); make the GCS process exit ({@code restartHead}); crash raylets in running pods
     * ({@code restartRaylets}); evict pods gracefully ({@code evict}); lose pods abruptly ({@code losePods}: their node
     * failed); suspend or resume the cluster ({@code suspend}); have the cluster's owner change a group's bounds
     * ({@code editGroup}); append a worker group to the owning RayService's {@code rayClusterConfig} ({@code appendGroup}).
     */
    public record Event(double at, Tasks tasks, PlacementGroup placementGroup, RequestResources requestResources, Boolean restartHead,
            PodSelection restartRaylets, PodSelection evict, PodSelection losePods, Boolean suspend, GroupEdit editGroup,
            Group appendGroup) {
    }

    /** The cluster's owner sets {@code minReplicas} and {@code maxReplicas} of {@code group} (each only if given). */
    public record GroupEdit(String group, Integer minReplicas, Integer maxReplicas) {
    }

    /**
     * A driver's {@code ray.autoscaler.sdk.request_resources(num_cpus=numCpus, bundles=bundles)}, on the client path
     * {@code path} ({@link ClientPath}; default FRESH: a driver that reads Ray's client switch when it calls).
     */
    public record RequestResources(int numCpus, List<Map<String, BigDecimal>> bundles, ClientPath path) {

        public RequestResources {
            bundles = bundles == null ? List.of() : List.copyOf(bundles);
            path = path == null ? ClientPath.FRESH : path;
        }
    }

    /**
     * {@code count} tasks of {@code shape}, each running {@code seconds}, on a node carrying the labels of
     * {@code labelSelector} if given (each label with that value: {@code label_selector={"ray.io/node-group": "gpu"}}).
     */
    public record Tasks(long count, Map<String, BigDecimal> shape, double seconds, Map<String, String> labelSelector) {

        public Tasks {
            labelSelector = labelSelector == null ? Map.of() : Map.copyOf(labelSelector);
        }
    }

    /**
     * A placement group whose bundles are held for {@code seconds} once placed; bundle i on a node carrying the labels of
     * {@code bundleLabelSelectors[i]} if given ({@code bundle_label_selector}).
     */
    public record PlacementGroup(String id, String strategy, List<Map<String, BigDecimal>> bundles, double seconds,
            List<Map<String, String>> bundleLabelSelectors) {

        public PlacementGroup {
            bundleLabelSelectors = bundleLabelSelectors == null ? List.of() : List.copyOf(bundleLabelSelectors);
        }
    }

    /**
     * Up to {@code count} worker pods of {@code group} in a state: {@code idle} (a Ray node running
     * nothing), {@code busy} (running work), {@code starting} (not a Ray node yet); by name order. If no
     * pod is in that state at the event's time, the first moment within {@code withinSeconds} (default
     * 120) that one is counts: the fault waits for its target, as faults in a real cluster find theirs.
     */
    public record PodSelection(String group, int count, String state, Double withinSeconds) {

        public double window() {
            return withinSeconds == null ? 120 : withinSeconds;
        }
    }

    public static Workload read(Path file) {
        try (InputStream in = Files.newInputStream(file)) {
            return read(in);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read workload " + file, e);
        }
    }

    /** Writes the workload as YAML that {@link #read(Path)} reads back (a reconstructed one, to replay as a demo scenario). */
    public void write(Path file) {
        try {
            new ObjectMapper(new YAMLFactory()).setSerializationInclusion(JsonInclude.Include.NON_NULL).writeValue(file.toFile(), this);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write workload " + file, e);
        }
    }

    /** A workload shipped with Rayscale, by name ({@code walkthrough}, {@code burst}, ...). */
    public static Workload shipped(String name) {
        try (InputStream in = Workload.class.getClassLoader().getResourceAsStream("workloads/" + name + ".yaml")) {
            if (in == null) {
                throw new IllegalArgumentException("no shipped workload named " + name);
            }
            return read(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Workload read(InputStream in) throws IOException {
        return new ObjectMapper(new YAMLFactory()).configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, true)
                .readValue(in, Workload.class);
    }

    public Workload withCluster(Cluster changed) {
        return new Workload(name, description, speed, changed, nodePool, podStartSeconds, containerRestartSeconds, terminationSeconds,
                maxSeconds, events, gitOps, rayService, rayJob);
    }

    /** A worker group of the cluster, or one an event appends to its RayService. */
    public Group group(String name) {
        return Stream.concat(cluster.groups().stream(), events.stream().map(Event::appendGroup).filter(Objects::nonNull))
                .filter(group -> group.name().equals(name)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no worker group " + name + " in workload " + this.name));
    }

    public Resources headShape() {
        return Resources.of("CPU", BigDecimal.valueOf(cluster.headCpus()).toPlainString(), "memory", "2147483648");
    }

    public String restartPolicy() {
        return cluster.restartPolicy() == null ? "Always" : cluster.restartPolicy();
    }

    /** A shape as written in a workload, as exact resources. */
    public static Resources resourcesOf(Map<String, BigDecimal> amounts) {
        return resources(amounts);
    }

    static Resources resources(Map<String, BigDecimal> amounts) {
        Map<String, Quantity> quantities = new TreeMap<>();
        amounts.forEach((name, amount) -> quantities.put(name, Quantity.of(amount)));
        return Resources.of(quantities);
    }
}
