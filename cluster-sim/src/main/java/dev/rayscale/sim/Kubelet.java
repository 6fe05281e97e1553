package dev.rayscale.sim;

import dev.rayscale.events.Resources;
import dev.rayscale.kuberay.NodeEnv;
import dev.rayscale.kuberay.RayLabels;
import io.fabric8.kubernetes.api.model.ContainerState;
import io.fabric8.kubernetes.api.model.ContainerStateBuilder;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.PodConditionBuilder;
import io.fabric8.kubernetes.api.model.PodStatus;
import io.fabric8.kubernetes.api.model.PodStatusBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Random;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.DoubleSupplier;

/**
 * The pods of the simulated cluster and what Kubernetes does with them: the API server's objects (in
 * the embedded mock server, which Rayscale reads), the scheduler placing them on the {@link NodePool},
 * and the kubelet starting, restarting and stopping their containers.
 *
 * <ul>
 *   <li>A pod is created Pending, scheduled when a node has room (else {@code Unschedulable}), runs its
 *       ray container after the workload's start delay, and its raylet then registers with the GCS.</li>
 *   <li>When the ray process ends (seen at the kubelet's next relist, within a second), {@code restartPolicy: Always}
 *       restarts the container in the same pod
 *       (a new raylet, a new node id, fact A4.20); {@code Never} ends the pod Succeeded or Failed, which
 *       the operator then deletes (B6.25). KubeRay leaves the template's policy alone when its own
 *       autoscaler is off (Rayscale's case; {@code ray-operator/controllers/ray/common/pod.go} sets Never
 *       only with autoscaler v2 enabled, B10.36), so Always is the default.</li>
 *   <li>Deleting a pod marks it terminating ({@code deletionTimestamp}, still listed and counted by the
 *       operator, B6.28), sends SIGTERM (the raylet unregisters: DEAD at once, A4.19) and removes it after
 *       the grace period. A force-deleted pod vanishes at once; its node stays alive in the GCS until
 *       the health checks fail (A4.19).</li>
 *   <li>A resource quota on a group refuses creations beyond its limit, as the API server does.</li>
 * </ul>
 * Pod deletions while the pod's raylet runs work are counted, whoever asked for them.
 */
final class Kubelet implements RaySim.Containers {

    /**
     * Holds a deleted pod in the API server while it terminates. A real API server keeps a gracefully
     * deleted pod until its kubelet confirms; the mock server keeps an object only while it has a
     * finalizer, so the simulated kubelet holds one and lets go when the grace period ends.
     */
    static final String TERMINATION_FINALIZER = "sim.rayscale.dev/kubelet-termination";
    /** The alphabet Kubernetes draws generated name suffixes from. */
    private static final String NAME_ALPHABET = "bcdfghjklmnpqrstvwxz2456789";

    /** A create the API server refused (a quota, an admission webhook). */
    static final class CreateRefused extends RuntimeException {
        CreateRefused(String message) {
            super(message);
        }
    }

    /** One pod as the kubelet knows it. */
    static final class SimPod {
        final String name;
        final String group;
        final String replica;
        final Resources resources;
        final Map<String, String> labels;
        double scheduledAt = Double.NaN;
        boolean unschedulableReported;
        /** When the ray container (re)starts; NaN while it is not about to. */
        double containerStartsAt = Double.NaN;
        boolean containerRunning;
        int restarts;
        String phase = "Pending";
        boolean terminating;
        double goneAt = Double.NaN;

        SimPod(String name, String group, String replica, Resources resources, Map<String, String> labels) {
            this.name = name;
            this.group = group;
            this.replica = replica;
            this.resources = resources;
            this.labels = labels;
        }

        boolean head() {
            return group == null;
        }
    }

    private final KubernetesClient client;
    private final OwnWrites writes;
    private final KubeRayRelease kubeRay;
    private final String namespace;
    private final String cluster;
    private final Workload workload;
    private final RaySim ray;
    private final NodePool pool;
    private final DoubleSupplier clock;
    private final Random names;
    private final Map<String, SimPod> pods = new LinkedHashMap<>();
    /** The ray processes that ended, reported by Ray from its own threads and handled on the kubelet's. */
    private final Queue<Map.Entry<String, Boolean>> exits = new ConcurrentLinkedQueue<>();
    /**
     * Exits the kubelet has not seen yet: its PLEG relists the containers every second ({@code plegRelistPeriod = time.Second
     * * 1}, kubernetes {@code pkg/kubelet/kubelet.go}) and sees an exit at the first relist after it, here at each whole
     * second of simulated time. Only then does the pod's status change (a restart, or under Never the pod's end).
     */
    private final List<UnseenExit> unseen = new ArrayList<>();

    private record UnseenExit(String pod, boolean cleanly, double seenAt) {
    }
    private long busyDeletions;
    /** Busy pods the operator deleted by its own choice because a named pod was lost unseen (see {@link KubeRayOperator}). */
    private long busyDeletionsForcedByLoss;
    /** Pods force-deleted (lost with their node), and when, on the JVM's monotonic clock once they were gone. */
    private final Map<String, Long> lostAt = new HashMap<>();

    Kubelet(KubernetesClient client, OwnWrites writes, String namespace, String cluster, Workload workload, RaySim ray, NodePool pool,
            DoubleSupplier clock, long seed) {
        this.client = client;
        this.writes = writes;
        this.kubeRay = workload.cluster().versions().kubeRayRelease();
        this.namespace = namespace;
        this.cluster = cluster;
        this.workload = workload;
        this.ray = ray;
        this.pool = pool;
        this.clock = clock;
        this.names = new Random(seed);
    }

    // ---- the API server's pod operations ----

    /** Creates a worker pod of {@code group} (its replica's name and index for multi-host groups); refused past a quota. */
    synchronized SimPod createWorker(String group, String replica, Integer replicaIndex, Integer hostIndex) {
        String name = generateName(workerPrefix(group));
        Workload.Quota quota = workload.cluster().quota();
        if (quota != null && quota.group().equals(group)) {
            long used = pods.values().stream().filter(pod -> group.equals(pod.group)).count();
            if (used >= quota.maxPods()) {
                throw new CreateRefused("pods \"" + name + "\" is forbidden: exceeded quota: " + group + "-quota, requested: pods=1, used: pods="
                        + used + ", limited: pods=" + quota.maxPods());
            }
        }
        Map<String, String> labels = new LinkedHashMap<>(Map.of(RayLabels.CLUSTER, cluster, RayLabels.GROUP, group, RayLabels.NODE_TYPE, "worker",
                RayLabels.IS_RAY_NODE, "yes", RayLabels.IDENTIFIER, cluster + "-worker"));
        if (replica != null && kubeRay.replicaLabels()) {
            labels.put(RayLabels.REPLICA, replica);
            labels.put(RayLabels.REPLICA_INDEX, String.valueOf(replicaIndex));
            labels.put(RayLabels.HOST_INDEX, String.valueOf(hostIndex));
        }
        Workload.Group spec = workload.group(group);
        return add(new SimPod(name, group, replica == null ? name : replica, spec.shape(), labels));
    }

    synchronized SimPod createHead() {
        String name = generateName(cluster + "-head-");
        Map<String, String> labels = new LinkedHashMap<>(Map.of(RayLabels.CLUSTER, cluster, RayLabels.GROUP, ClusterSimulator.HEAD_GROUP,
                RayLabels.NODE_TYPE, "head", RayLabels.IS_RAY_NODE, "yes", RayLabels.IDENTIFIER, cluster + "-head"));
        SimPod pod = new SimPod(name, null, name, workload.headShape(), labels);
        // The head has a node of its own: it is scheduled at once.
        pod.scheduledAt = clock.getAsDouble();
        pod.containerStartsAt = pod.scheduledAt + workload.podStartSeconds();
        return add(pod);
    }

    /**
     * The pod as the operator of the cluster's KubeRay writes it: from 1.1 the Ray container reads its pod's name and group
     * into {@code RAY_CLOUD_INSTANCE_ID} and {@code RAY_NODE_TYPE_NAME}; from 1.6 its namespace into
     * {@code RAY_CLUSTER_NAMESPACE}, and the head carries the operator's version ({@code ray.io/kuberay-version}).
     */
    private SimPod add(SimPod pod) {
        List<EnvVar> env = NodeEnv.written(kubeRay.setsNodeEnv(), kubeRay.replicaLabels());
        Map<String, String> annotations = pod.head() && kubeRay.replicaLabels() ? Map.of(NodeEnv.KUBERAY_VERSION_ANNOTATION, kubeRay.annotation())
                : Map.of();
        // A worker a node can take now is bound as it is created: the scheduler's binding follows a create within
        // milliseconds, and writing it apart would cost a fleet's API server one write in six for a state no one sees.
        double now = clock.getAsDouble();
        boolean scheduled = !pod.head() && pool.schedule(pod.name, now);
        if (scheduled) {
            pod.scheduledAt = now;
            pod.containerStartsAt = pod.scheduledAt + workload.podStartSeconds();
        }
        try {
            writes.create(podsPath(), new PodBuilder().withNewMetadata()
                    .withName(pod.name).withNamespace(namespace).withCreationTimestamp(Instant.now().toString()).withLabels(pod.labels)
                    .withAnnotations(annotations).withFinalizers(TERMINATION_FINALIZER)
                    .endMetadata()
                    .withNewSpec().withRestartPolicy(workload.restartPolicy())
                    .addNewContainer().withName(containerName(pod)).withImage(image(workload)).withEnv(env).endContainer()
                    .endSpec()
                    .withStatus(scheduled ? podStatus(pod, "True", null, false) : new PodStatusBuilder().withPhase("Pending").build()).build());
        } catch (RuntimeException refused) {
            pool.release(pod.name);
            throw refused;
        }
        pods.put(pod.name, pod);
        return pod;
    }

    /** The Ray image of the workload's Ray version. */
    static String image(Workload workload) {
        return "rayproject/ray:" + workload.cluster().versions().ray() + "-py311";
    }

    /**
     * KubeRay's worker name prefix: from 1.2 {@code <cluster>-<group>} cut to its first 50 characters, then {@code -worker-}
     * ({@code PodGenerateName}); before, {@code <cluster>-worker-<group>-} cut to its last 50 ({@code CheckName}), whose
     * leading digit or punctuation becomes {@code r} (fact D57).
     */
    private String workerPrefix(String group) {
        if (kubeRay.groupFirstPodNames()) {
            String prefix = cluster + "-" + group;
            return (prefix.length() > 50 ? prefix.substring(0, 50) : prefix) + "-worker-";
        }
        String prefix = cluster + "-worker-" + group + "-";
        prefix = prefix.length() > 50 ? prefix.substring(prefix.length() - 50) : prefix;
        return Character.isLetter(prefix.charAt(0)) ? prefix : "r" + prefix.substring(1);
    }

    private String generateName(String prefix) {
        StringBuilder name = new StringBuilder(prefix);
        for (int i = 0; i < 5; i++) {
            name.append(NAME_ALPHABET.charAt(names.nextInt(NAME_ALPHABET.length())));
        }
        return name.toString();
    }

    /** A graceful delete: terminating until its grace period ends. False if there is no such pod (NotFound). */
    synchronized boolean delete(String name) {
        return delete(name, false);
    }

    /**
     * As {@link #delete(String)}; {@code forcedByLoss} when the operator deletes a pod of its own choice that no client could
     * have kept ({@link KubeRayOperator}): counted apart if it ran work.
     */
    synchronized boolean delete(String name, boolean forcedByLoss) {
        SimPod pod = pods.get(name);
        if (pod == null) {
            return false;
        }
        if (pod.terminating) {
            return true;
        }
        if (forcedByLoss && ray.busy(pod.name)) {
            busyDeletionsForcedByLoss++;
        } else {
            countIfBusy(pod);
        }
        pod.terminating = true;
        pod.goneAt = clock.getAsDouble() + workload.terminationSeconds();
        pool.release(pod.name);
        writes.delete(podPath(name));
        ray.stopPod(pod.name, true);
        return true;
    }

    /** The pod vanishes at once (its node failed, or it was force-deleted): no SIGTERM reaches the raylet. */
    synchronized void forceDelete(String name) {
        SimPod pod = pods.get(name);
        if (pod == null) {
            return;
        }
        countIfBusy(pod);
        remove(pod);
        ray.stopPod(pod.name, false);
        lostAt.put(name, System.nanoTime());
    }

    /** Whether {@code name} was force-deleted, and gone, after {@code nanoTime} ({@code Long.MIN_VALUE}: ever). */
    synchronized boolean lostAfter(String name, long nanoTime) {
        Long lost = lostAt.get(name);
        // nanoTime values compare only by their difference; the sentinel would overflow it.
        return lost != null && (nanoTime == Long.MIN_VALUE || lost - nanoTime > 0);
    }

    private void countIfBusy(SimPod pod) {
        if (ray.busy(pod.name)) {
            busyDeletions++;
        }
    }

    private void remove(SimPod pod) {
        pods.remove(pod.name);
        pool.release(pod.name);
        writes.jsonPatch(podPath(pod.name), "[{\"op\":\"replace\",\"path\":\"/metadata/finalizers\",\"value\":[]}]");
        writes.delete(podPath(pod.name));
    }

    /** Pods as a list call returns them, terminating ones included: by name. */
    synchronized List<SimPod> list(String group) {
        return pods.values().stream().filter(pod -> group == null ? pod.head() : group.equals(pod.group))
                .sorted(Comparator.comparing(pod -> pod.name)).toList();
    }

    synchronized boolean exists(String name) {
        return pods.containsKey(name);
    }

    synchronized SimPod get(String name) {
        return pods.get(name);
    }

    synchronized List<SimPod> all() {
        return List.copyOf(pods.values());
    }

    synchronized long busyDeletions() {
        return busyDeletions;
    }

    synchronized long busyDeletionsForcedByLoss() {
        return busyDeletionsForcedByLoss;
    }

    // ---- the kubelet ----

    @Override
    public void rayProcessExited(String pod, boolean cleanly) {
        exits.add(Map.entry(pod, cleanly));
    }

    /** One step: container exits, scheduling, container starts, grace periods ending, the node autoscaler. */
    synchronized void tick() {
        double now = clock.getAsDouble();
        for (Map.Entry<String, Boolean> exit; (exit = exits.poll()) != null; ) {
            unseen.add(new UnseenExit(exit.getKey(), exit.getValue(), Math.floor(now) + 1));
        }
        unseen.removeIf(exit -> {
            if (now < exit.seenAt()) {
                return false;
            }
            containerEnded(exit.pod(), exit.cleanly(), now);
            return true;
        });
        int unschedulable = 0;
        for (SimPod pod : new ArrayList<>(pods.values())) {
            if (pod.terminating) {
                if (now >= pod.goneAt) {
                    remove(pod);
                }
                continue;
            }
            if (Double.isNaN(pod.scheduledAt)) {
                if (!pool.schedule(pod.name, now)) {
                    unschedulable++;
                    if (!pod.unschedulableReported) {
                        pod.unschedulableReported = true;
                        status(pod, "False", "Unschedulable", false);
                    }
                    continue;
                }
                pod.scheduledAt = now;
                pod.containerStartsAt = now + workload.podStartSeconds();
                status(pod, "True", null, false);
            }
            if (!Double.isNaN(pod.containerStartsAt) && now >= pod.containerStartsAt) {
                startContainer(pod);
            }
        }
        pool.autoscale(unschedulable, now);
    }

    private void startContainer(SimPod pod) {
        boolean started = pod.head() ? startHead(pod) : ray.startRaylet(pod.name, pod.group, pod.resources, workload.group(pod.group).labels());
        if (!started) {
            return;
        }
        pod.containerStartsAt = Double.NaN;
        pod.containerRunning = true;
        pod.phase = "Running";
        status(pod, "True", null, true);
    }

    private boolean startHead(SimPod pod) {
        ray.startHead(pod.name, pod.resources, Map.of());
        return true;
    }

    private void containerEnded(String name, boolean cleanly, double now) {
        SimPod pod = pods.get(name);
        if (pod == null || pod.terminating || !pod.containerRunning) {
            return;
        }
        pod.containerRunning = false;
        if ("Never".equals(workload.restartPolicy())) {
            pod.phase = cleanly ? "Succeeded" : "Failed";
            status(pod, "True", null, false);
            return;
        }
        pod.restarts++;
        pod.containerStartsAt = now + workload.containerRestartSeconds();
        status(pod, "True", null, false);
    }

    /**
     * Writes the pod's status as the kubelet's status manager does: one patch of the pod's {@code status} subresource
     * (kubernetes {@code pkg/util/pod/pod.go}, {@code PatchPodStatus}). There it is a strategic merge patch, which the mock
     * server does not take (and its JSON merge patches append to lists rather than replace them), so here a JSON Patch
     * sets the phase, the conditions and the container statuses whole: what the kubelet's patch leaves the pod with. The
     * real status manager reads the pod first, to merge its status with what others wrote there; nothing else writes a
     * simulated pod's status, so this kubelet's record is the whole of it and the read is left out, which spares a
     * fleet's API server one call in every two the kubelets made.
     */
    private void status(SimPod pod, String scheduled, String reason, boolean ready) {
        PodStatus status = podStatus(pod, scheduled, reason, ready);
        List<Map<String, Object>> patch = List.of(
                Map.of("op", "add", "path", "/status/phase", "value", status.getPhase()),
                Map.of("op", "add", "path", "/status/conditions", "value", status.getConditions()),
                Map.of("op", "add", "path", "/status/containerStatuses", "value", status.getContainerStatuses()));
        writes.jsonPatch(podPath(pod.name) + "/status", patch);
    }

    /** The phase, conditions and container statuses of {@code pod} as its kubelet reports them. */
    private PodStatus podStatus(SimPod pod, String scheduled, String reason, boolean ready) {
        ContainerState state = ready
                ? new ContainerStateBuilder().withNewRunning().withStartedAt(Instant.now().toString()).endRunning().build()
                : new ContainerStateBuilder().withNewWaiting().withReason(waitingReason(pod)).endWaiting().build();
        List<PodCondition> conditions = List.of(
                new PodConditionBuilder().withType("PodScheduled").withStatus(scheduled).withReason(reason).build(),
                new PodConditionBuilder().withType("Ready").withStatus(ready ? "True" : "False").build());
        List<ContainerStatus> containers = List.of(new ContainerStatusBuilder().withName(containerName(pod)).withReady(ready)
                .withRestartCount(pod.restarts).withState(state).build());
        return new PodStatusBuilder().withPhase(pod.phase).withConditions(conditions).withContainerStatuses(containers).build();
    }

    private String podsPath() {
        return "/api/v1/namespaces/" + namespace + "/pods";
    }

    private String podPath(String name) {
        return podsPath() + "/" + name;
    }

    private static String containerName(SimPod pod) {
        return "ray-" + (pod.head() ? "head" : "worker");
    }

    private static String waitingReason(SimPod pod) {
        if (Double.isNaN(pod.scheduledAt)) {
            return null;
        }
        return pod.restarts > 0 ? "CrashLoopBackOff" : "ContainerCreating";
    }

    /** The pod objects, for tests that read what Rayscale reads. */
    Pod object(String name) {
        return client.pods().inNamespace(namespace).withName(name).get();
    }
}
