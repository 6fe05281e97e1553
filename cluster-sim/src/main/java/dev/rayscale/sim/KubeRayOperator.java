package dev.rayscale.sim;

import com.fasterxml.jackson.databind.node.TextNode;
import dev.rayscale.clients.ClusterEvents;
import dev.rayscale.kuberay.RayLabels;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.ray.v1.RayCluster;
import io.ray.v1.rayclusterspec.WorkerGroupSpecs;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.DoubleSupplier;

/**
 * The KubeRay operator's pod reconciliation ({@code reconcilePods} in
 * {@code ray-operator/controllers/ray/raycluster_controller.go} at kuberay {@code feeaf72f}), step by
 * step as facts B6 to B9 record it:
 * <ol>
 *   <li>cluster suspend: delete every pod, then stay away until resumed (B7.30);</li>
 *   <li>the head pod: delete it if it ended, create it if missing;</li>
 *   <li>per worker group, in spec order, skipped while the operator's own creations are not yet visible
 *       (30 s at most) or its deletions not yet gone (B6.25.1): a suspended group loses all its pods
 *       (B7.31); ended pods are deleted first and then nothing is created in that pass (B6.25.2); every
 *       name in {@code workersToDelete} is deleted, by name, and the list is never cleared (B6.25.3,
 *       B6.26); then {@code clamp(replicas, min, max) x numOfHosts} minus the pods left — terminating
 *       ones counted (B6.28) — is created, or, in-tree autoscaling being off, that many pods are deleted
 *       in list order, busy or not (B6.27); multi-host groups go by whole replicas (B8.33);</li>
 *   <li>the first error ends the pass, later groups untouched (B6.29); a failed create records a
 *       {@code FailedToCreateWorkerPod} Warning and the {@code ReplicaFailure} condition, removed after a
 *       pass without error (B9.34).</li>
 * </ol>
 * Deletions the operator chooses itself (the list-order ones) are counted and told, with the spec and pods that led to
 * them: with Rayscale they must never happen — but for one race no client can close. A pod a patch names may be lost
 * (force-deleted, its node gone) after the client read the pods for that patch and before the operator sees it; the
 * operator, still on the old {@code replicas}, replaces it, and then finds one pod more than the new {@code replicas}
 * and deletes one of its choice. Kubernetes offers no write that fails when another object changed, and the operator
 * acts on the pod's deletion at once. Such deletions, told apart by when Rayscale last read the pods
 * ({@link RayscaleRequests}) and when the pod was lost, are counted as forced by the loss, not as the client's doing.
 */
final class KubeRayOperator {

    /** {@code expectations.ExpectationsTimeout}: a creation not seen after this long no longer holds the group back. */
    static final double CREATE_EXPECTATION_SECONDS = 30;

    private record Expectation(String pod, boolean create, double since) {
    }

    /** An error that ends a reconcile pass, with the ReplicaFailure reason it sets (if any). */
    private static final class PassFailed extends RuntimeException {
        final String reason;

        PassFailed(String reason, String message) {
            super(message);
            this.reason = reason;
        }
    }

    private final KubernetesClient client;
    private final OwnWrites writes;
    private final String namespace;
    private final String name;
    private final Kubelet kubelet;
    private final DoubleSupplier clock;
    private final Consumer<String> happened;
    private final ClusterEvents events;
    private final RayscaleRequests requests;
    private final Map<String, List<Expectation>> expectations = new HashMap<>();
    /** Lost pods that already explained a deletion forced by their loss: each explains one. */
    private final Set<String> lossesExplained = new HashSet<>();
    private long chosenDeletions;
    private long deletionsForcedByLoss;
    private boolean suspended;
    private String replicaFailure;
    private final boolean conditions;
    private final KubeRayRelease release;
    /** The generation whose invalid spec was last told in an Event; 0 if none. */
    private long refusedGeneration;

    KubeRayOperator(KubernetesClient client, OwnWrites writes, String namespace, String name, Kubelet kubelet, RayscaleRequests requests, DoubleSupplier clock,
            Consumer<String> happened, KubeRayRelease release) {
        this.release = release;
        this.conditions = release.replicaFailureCondition();
        this.client = client;
        this.writes = writes;
        this.namespace = namespace;
        this.name = name;
        this.kubelet = kubelet;
        this.requests = requests;
        this.clock = clock;
        this.happened = happened;
        this.events = new ClusterEvents(client, "kuberay-operator");
    }

    void reconcile() {
        RayCluster cluster = client.resources(RayCluster.class).inNamespace(namespace).withName(name).get();
        if (cluster != null) {
            reconcile(cluster);
        }
    }

    /**
     * One pass over {@code cluster} as last read (by a GET, or from an informer's cache as controller-runtime reads it). From
     * KubeRay 1.3 a spec its validation refuses ends the pass at once, with a Warning Event and no status written
     * ({@code rayClusterReconcile} after {@code utils.ValidateRayClusterSpec}, {@code raycluster_controller.go} at kuberay {@code feeaf72f}):
     * its pods stay as they are whatever the spec's replicas say, and {@code status.observedGeneration} stays behind.
     */
    void reconcile(RayCluster cluster) {
        String invalid = release.validatesSpec() ? release.specError(cluster.getSpec()) : null;
        if (invalid != null) {
            long generation = cluster.getMetadata().getGeneration() == null ? 0 : cluster.getMetadata().getGeneration();
            if (generation != refusedGeneration) {
                // Real KubeRay repeats the Event on every reconcile a watch event starts; once per generation is enough here.
                refusedGeneration = generation;
                happened.accept("KubeRay refuses the spec (generation " + generation + "): " + invalid);
                events.record(cluster, ClusterEvents.Type.Warning, "InvalidRayClusterSpec",
                        "The RayCluster spec is invalid " + namespace + "/" + name + ": " + invalid);
            }
            return;
        }
        String failure = null;
        try {
            reconcilePods(cluster);
        } catch (PassFailed failed) {
            failure = failed.reason == null ? null : failed.reason + "\n" + failed.getMessage();
        }
        updateStatus(failure, cluster.getMetadata().getGeneration());
    }

    private void reconcilePods(RayCluster cluster) {
        if (Boolean.TRUE.equals(cluster.getSpec().getSuspend())) {
            for (Kubelet.SimPod pod : kubelet.all()) {
                kubelet.delete(pod.name);
            }
            suspended = kubelet.all().isEmpty();
            return;
        }
        suspended = false;
        List<Kubelet.SimPod> heads = kubelet.list(null);
        if (satisfied(ClusterSimulator.HEAD_GROUP)) {
            if (heads.isEmpty()) {
                expect(ClusterSimulator.HEAD_GROUP, kubelet.createHead().name, true);
            } else if (ended(heads.get(0))) {
                kubelet.delete(heads.get(0).name);
                expect(ClusterSimulator.HEAD_GROUP, heads.get(0).name, false);
                throw new PassFailed(null, "the head pod ended");
            }
        }
        for (WorkerGroupSpecs group : cluster.getSpec().getWorkerGroupSpecs()) {
            if (!satisfied(group.getGroupName())) {
                continue;
            }
            List<Kubelet.SimPod> pods = kubelet.list(group.getGroupName());
            if (Boolean.TRUE.equals(group.getSuspend())) {
                pods.forEach(pod -> kubelet.delete(pod.name));
                continue;
            }
            int hosts = group.getNumOfHosts() == null || group.getNumOfHosts() < 1 ? 1 : group.getNumOfHosts();
            if (hosts > 1) {
                reconcileMultiHost(group, pods, hosts);
            } else {
                reconcileSingleHost(group, pods);
            }
        }
    }

    private void reconcileSingleHost(WorkerGroupSpecs group, List<Kubelet.SimPod> pods) {
        String groupName = group.getGroupName();
        int unhealthy = 0;
        for (Kubelet.SimPod pod : pods) {
            if (ended(pod)) {
                kubelet.delete(pod.name);
                expect(groupName, pod.name, false);
                unhealthy++;
            }
        }
        if (unhealthy > 0) {
            throw new PassFailed(null, "delete " + unhealthy + " unhealthy worker Pods");
        }
        Set<String> deleted = new LinkedHashSet<>();
        for (String named : workersToDelete(group)) {
            if (kubelet.delete(named)) {
                expect(groupName, named, false);
                deleted.add(named);
            }
        }
        List<Kubelet.SimPod> remaining = pods.stream().filter(pod -> !deleted.contains(pod.name)).toList();
        int diff = desired(group) - remaining.size();
        if (diff > 0) {
            for (int i = 0; i < diff; i++) {
                expect(groupName, create(groupName, null, null, null), true);
            }
        } else if (diff < 0) {
            // In-tree autoscaling off: "random" deletion, the first -diff pods as listed (B6.27).
            boolean forced = choose(group, -diff, remaining.stream().map(pod -> pod.name).toList());
            for (int i = 0; i < -diff; i++) {
                kubelet.delete(remaining.get(i).name, forced);
                expect(groupName, remaining.get(i).name, false);
            }
        }
    }

    private void reconcileMultiHost(WorkerGroupSpecs group, List<Kubelet.SimPod> pods, int hosts) {
        String groupName = group.getGroupName();
        Map<String, List<Kubelet.SimPod>> replicas = new LinkedHashMap<>();
        pods.forEach(pod -> replicas.computeIfAbsent(pod.replica, key -> new ArrayList<>()).add(pod));
        for (Map.Entry<String, List<Kubelet.SimPod>> replica : replicas.entrySet()) {
            if (replica.getValue().size() < hosts) {
                deleteAll(groupName, replica.getValue());
                throw new PassFailed(null, "cleaned up incomplete replica group " + replica.getKey() + ", requeueing");
            }
        }
        Set<String> deletedReplicas = new LinkedHashSet<>();
        for (Kubelet.SimPod pod : pods) {
            if (ended(pod) && deletedReplicas.add(pod.replica)) {
                deleteAll(groupName, replicas.get(pod.replica));
            }
        }
        Set<String> named = new LinkedHashSet<>();
        for (String podName : workersToDelete(group)) {
            pods.stream().filter(pod -> pod.name.equals(podName)).findFirst().ifPresent(pod -> named.add(pod.replica));
        }
        if (!named.isEmpty()) {
            named.forEach(replica -> deleteAll(groupName, replicas.get(replica)));
            throw new PassFailed(null, "deleted worker Pods based on ScaleStrategy, requeueing");
        }
        List<String> valid = replicas.keySet().stream().filter(replica -> !deletedReplicas.contains(replica)).toList();
        int create = desired(group) / hosts - valid.size();
        Set<Integer> indices = new LinkedHashSet<>();
        valid.forEach(replica -> indices.add(Integer.parseInt(replicas.get(replica).get(0).labels.getOrDefault(RayLabels.REPLICA_INDEX, "0"))));
        for (int r = 0; r < create; r++) {
            int index = 0;
            while (indices.contains(index)) {
                index++;
            }
            indices.add(index);
            String replica = groupName + "-" + Integer.toString(Math.abs((groupName + index + clock.getAsDouble()).hashCode()) % 60466176, 36);
            for (int host = 0; host < hosts; host++) {
                expect(groupName, create(groupName, replica, index, host), true);
            }
        }
        boolean forced = create < 0 && choose(group, -create * hosts, valid);
        for (int r = 0; r < -create; r++) {
            deleteAll(groupName, replicas.get(valid.get(r)), forced);
        }
    }

    /**
     * Counts and tells deletions of the operator's own choosing, with what it counted; true if they are forced by the loss
     * of pods the last patch named, each lost after Rayscale read the pods for that patch. Pods are counted one by one, so
     * in a multi-host group, where one lost host costs a whole replica, such deletions count as chosen: stricter, never laxer.
     */
    private boolean choose(WorkerGroupSpecs group, int pods, List<String> counted) {
        long podsRead = requests.podsListedBeforeLastPatch(namespace, name);
        List<String> lostUnseen = workersToDelete(group).stream()
                .filter(pod -> !lossesExplained.contains(pod) && kubelet.lostAfter(pod, podsRead)).toList();
        boolean forced = lostUnseen.size() >= pods;
        String what = "the operator deletes " + pods + " pod(s) of group " + group.getGroupName() + " of its own choice: replicas "
                + group.getReplicas() + ", workersToDelete " + workersToDelete(group) + ", counted " + counted;
        if (forced) {
            lossesExplained.addAll(lostUnseen.subList(0, pods));
            deletionsForcedByLoss += pods;
            happened.accept(what + " — forced: " + lostUnseen.subList(0, pods) + " were lost after Rayscale last read the pods,"
                    + " and replaced before the operator saw them named");
        } else {
            chosenDeletions += pods;
            happened.accept(what);
        }
        return forced;
    }

    private String create(String group, String replica, Integer index, Integer host) {
        try {
            return kubelet.createWorker(group, replica, index, host).name;
        } catch (Kubelet.CreateRefused refused) {
            String message = "Failed to create worker Pod for the cluster " + namespace + "/" + name + ", " + refused.getMessage();
            RayCluster cluster = client.resources(RayCluster.class).inNamespace(namespace).withName(name).get();
            if (cluster != null) {
                events.record(cluster, ClusterEvents.Type.Warning, "FailedToCreateWorkerPod", message);
            }
            throw new PassFailed("FailedCreateWorkerPod", refused.getMessage());
        }
    }

    private void deleteAll(String group, List<Kubelet.SimPod> pods) {
        deleteAll(group, pods, false);
    }

    private void deleteAll(String group, List<Kubelet.SimPod> pods, boolean forcedByLoss) {
        for (Kubelet.SimPod pod : pods) {
            kubelet.delete(pod.name, forcedByLoss);
            expect(group, pod.name, false);
        }
    }

    /** {@code GetWorkerGroupDesiredReplicas}: clamp(replicas, min, max) x numOfHosts, 0 if suspended, min if replicas is unset (B6.24). */
    static int desired(WorkerGroupSpecs group) {
        if (Boolean.TRUE.equals(group.getSuspend())) {
            return 0;
        }
        int min = group.getMinReplicas() == null ? 0 : group.getMinReplicas();
        int max = group.getMaxReplicas() == null ? Integer.MAX_VALUE : group.getMaxReplicas();
        int replicas = group.getReplicas() == null || group.getReplicas() < min ? min : Math.min(max, group.getReplicas());
        return replicas * (group.getNumOfHosts() == null || group.getNumOfHosts() < 1 ? 1 : group.getNumOfHosts());
    }

    private static List<String> workersToDelete(WorkerGroupSpecs group) {
        return group.getScaleStrategy() == null || group.getScaleStrategy().getWorkersToDelete() == null ? List.of()
                : group.getScaleStrategy().getWorkersToDelete();
    }

    private static boolean ended(Kubelet.SimPod pod) {
        return "Failed".equals(pod.phase) || "Succeeded".equals(pod.phase);
    }

    private void expect(String group, String pod, boolean create) {
        expectations.computeIfAbsent(group, key -> new ArrayList<>()).add(new Expectation(pod, create, clock.getAsDouble()));
    }

    /** B6.25.1: created pods visible (or 30 s passed), deleted pods gone. */
    private boolean satisfied(String group) {
        List<Expectation> pending = expectations.computeIfAbsent(group, key -> new ArrayList<>());
        double now = clock.getAsDouble();
        pending.removeIf(expectation -> expectation.create() ? kubelet.exists(expectation.pod())
                || now - expectation.since() >= CREATE_EXPECTATION_SECONDS : !kubelet.exists(expectation.pod()));
        return pending.isEmpty();
    }

    /** The status the operator writes: the ReplicaFailure and suspend conditions, the state, desired workers. */
    private void updateStatus(String failure, Long generation) {
        if (Objects.equals(failure, replicaFailure) && suspended == wasSuspended && Objects.equals(generation, observedGeneration)) {
            return;
        }
        replicaFailure = failure;
        wasSuspended = suspended;
        observedGeneration = generation;
        StringBuilder written = new StringBuilder("[");
        if (failure != null && conditions) {
            int newline = failure.indexOf('\n');
            written.append(condition("ReplicaFailure", "True", failure.substring(0, newline), failure));
        }
        if (suspended && conditions) {
            written.append(written.length() > 1 ? "," : "").append(condition("RayClusterSuspended", "True", "RayClusterSuspended", ""));
        }
        written.append(']');
        // calculateStatus: newInstance.Status.ObservedGeneration = newInstance.ObjectMeta.Generation (KubeRay 1.0 to today).
        String status = "{\"state\":\"" + (suspended ? "suspended" : "ready") + "\",\"conditions\":" + written
                + (generation == null ? "" : ",\"observedGeneration\":" + generation) + "}";
        writes.jsonPatch("/apis/ray.io/v1/namespaces/" + namespace + "/rayclusters/" + name + "/status",
                "[{\"op\":\"add\",\"path\":\"/status\",\"value\":" + status + "}]");
    }

    private boolean wasSuspended;
    private Long observedGeneration;

    private static String condition(String type, String status, String reason, String message) {
        return "{\"type\":\"" + type + "\",\"status\":\"" + status + "\",\"reason\":\"" + reason + "\",\"message\":"
                + TextNode.valueOf(message) + ",\"lastTransitionTime\":\""
                + Instant.now().truncatedTo(ChronoUnit.SECONDS) + "\"}";
    }

    long chosenDeletions() {
        return chosenDeletions;
    }

    long deletionsForcedByLoss() {
        return deletionsForcedByLoss;
    }
}
