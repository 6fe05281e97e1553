package dev.rayscale.sim;

import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodConditionBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.ray.v1.RayCluster;
import io.ray.v1.rayclusterspec.WorkerGroupSpecs;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * What the KubeRay operator does, every reconcile, per worker group: delete the pods named in
 * {@code workersToDelete}, then create pods (or, since in-tree autoscaling is off, delete pods of its
 * own choosing) until there are {@code clamp(replicas, min, max) x numOfHosts}. Pods wait Pending for a
 * node of the {@link NodePool}, start after the workload's delay, and then register with Ray.
 */
final class OperatorSim {

    static final String REPLICA_LABEL = "ray.io/worker-group-replica-name";

    private static final class SimPod {
        final String group;
        final String replica;
        double scheduledAt = Double.NaN;
        boolean unschedulableReported;
        boolean running;

        SimPod(String group, String replica) {
            this.group = group;
            this.replica = replica;
        }
    }

    private final KubernetesClient client;
    private final String namespace;
    private final String name;
    private final Workload workload;
    private final RaySim ray;
    private final NodePool pool;
    private final Map<String, SimPod> pods = new LinkedHashMap<>();
    private final Random names = new Random(7);
    private long podsDeletedByOperator;

    OperatorSim(KubernetesClient client, String namespace, String name, Workload workload, RaySim ray, NodePool pool) {
        this.client = client;
        this.namespace = namespace;
        this.name = name;
        this.workload = workload;
        this.ray = ray;
        this.pool = pool;
    }

    void reconcile(double now) {
        RayCluster cluster = client.resources(RayCluster.class).inNamespace(namespace).withName(name).get();
        if (cluster == null) {
            return;
        }
        for (WorkerGroupSpecs group : cluster.getSpec().getWorkerGroupSpecs()) {
            reconcileGroup(group, now);
        }
        int unschedulable = 0;
        for (Map.Entry<String, SimPod> entry : new ArrayList<>(pods.entrySet())) {
            unschedulable += advance(entry.getKey(), entry.getValue(), now) ? 1 : 0;
        }
        pool.autoscale(unschedulable, now);
    }

    private void reconcileGroup(WorkerGroupSpecs group, double now) {
        List<String> named = group.getScaleStrategy() == null || group.getScaleStrategy().getWorkersToDelete() == null
                ? List.of() : group.getScaleStrategy().getWorkersToDelete();
        for (String pod : named) {
            if (pods.containsKey(pod)) {
                delete(pod, now);
            }
        }
        int hosts = group.getNumOfHosts() == null ? 1 : group.getNumOfHosts();
        int replicas = Math.max(group.getMinReplicas(), Math.min(group.getMaxReplicas(), group.getReplicas() == null ? 0 : group.getReplicas()));
        List<String> mine = pods.entrySet().stream().filter(e -> e.getValue().group.equals(group.getGroupName())).map(Map.Entry::getKey).toList();
        int diff = replicas * hosts - mine.size();
        for (int replica = 0; replica < diff / hosts; replica++) {
            String suffix = Integer.toString(names.nextInt(1 << 24), 36);
            if (hosts == 1) {
                create(group.getGroupName(), name + "-" + group.getGroupName() + "-worker-" + suffix, null);
                continue;
            }
            String replicaName = name + "-" + group.getGroupName() + "-" + suffix;
            for (int host = 0; host < hosts; host++) {
                create(group.getGroupName(), replicaName + "-h" + host, replicaName);
            }
        }
        for (int i = 0; i < -diff; i++) {
            podsDeletedByOperator++;
            delete(mine.get(mine.size() - 1 - i), now);
        }
    }

    private void create(String group, String podName, String replica) {
        PodBuilder pod = new PodBuilder().withNewMetadata()
                .withName(podName).withNamespace(namespace).withCreationTimestamp(Instant.now().toString())
                .addToLabels("ray.io/cluster", name).addToLabels("ray.io/group", group).addToLabels("ray.io/node-type", "worker")
                .endMetadata()
                .withNewSpec().addNewContainer().withName("ray-worker").withImage("rayproject/ray:2.41.0").endContainer().endSpec()
                .withNewStatus().withPhase("Pending").endStatus();
        if (replica != null) {
            pod.editMetadata().addToLabels(REPLICA_LABEL, replica).endMetadata();
        }
        client.pods().inNamespace(namespace).resource(pod.build()).create();
        pods.put(podName, new SimPod(group, replica));
    }

    private void delete(String podName, double now) {
        pods.remove(podName);
        pool.release(podName);
        ray.remove(podName, now);
        client.pods().inNamespace(namespace).withName(podName).delete();
    }

    /** Moves a pod along: scheduled when a node is free, running after the start delay. True if it is unschedulable. */
    private boolean advance(String podName, SimPod pod, double now) {
        if (pod.running) {
            return false;
        }
        if (Double.isNaN(pod.scheduledAt)) {
            if (!pool.schedule(podName, now)) {
                if (!pod.unschedulableReported) {
                    pod.unschedulableReported = true;
                    status(podName, "Pending", "False", "Unschedulable");
                }
                return true;
            }
            pod.scheduledAt = now;
            status(podName, "Pending", "True", null);
            return false;
        }
        if (now - pod.scheduledAt >= workload.podStartSeconds()) {
            pod.running = true;
            status(podName, "Running", "True", null);
            Workload.Group group = workload.cluster().groups().stream().filter(g -> g.name().equals(pod.group)).findFirst().orElseThrow();
            ray.register(podName, pod.group, group.shape(), now);
        }
        return false;
    }

    private void status(String podName, String phase, String scheduled, String reason) {
        client.pods().inNamespace(namespace).withName(podName).edit(pod -> {
            pod.getStatus().setPhase(phase);
            pod.getStatus().setConditions(List.of(new PodConditionBuilder().withType("PodScheduled").withStatus(scheduled)
                    .withReason(reason).build()));
            return pod;
        });
    }

    /** Worker pods that exist, and of those the ones not yet running. */
    int[] podCounts() {
        int waiting = (int) pods.values().stream().filter(pod -> !pod.running).count();
        return new int[] {pods.size(), waiting};
    }

    long podsDeletedByOperator() {
        return podsDeletedByOperator;
    }
}
