package dev.rayscale.sim;

import io.fabric8.kubernetes.api.model.FieldsV1;
import io.fabric8.kubernetes.api.model.ManagedFieldsEntry;
import io.fabric8.kubernetes.api.model.ManagedFieldsEntryBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.ray.v1.RayCluster;
import io.ray.v1.rayclusterspec.WorkerGroupSpecs;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * A GitOps tool that re-applies the RayCluster's manifest every {@code everySeconds} (Argo CD's client-side sync, i.e.
 * {@code kubectl apply}): a custom resource is patched with a JSON merge patch (RFC 7386; Kubernetes' strategic merge does
 * not apply to custom resources), in which a list is replaced whole, so when the live worker groups differ from the
 * manifest's, {@code workerGroupSpecs} becomes the manifest's again: its {@code replicas}, and no {@code scaleStrategy}.
 * The API server records the write in {@code managedFields} under the client's field manager, and since KubeRay's CRD
 * gives {@code workerGroupSpecs} no list type (an atomic list), that manager then owns the list whole (the shared CRD;
 * Kubernetes' server-side apply docs, "Merge strategy"). The embedded API server keeps no managedFields, so this writer
 * records its own entry as the real one would.
 */
final class GitOpsWriter {

    private final Workload.GitOps gitOps;
    private final Map<String, Integer> manifest;
    private final KubernetesClient client;
    private final String namespace;
    private final String name;
    private final Consumer<String> happened;
    private double nextAt;
    private int writes;
    private volatile Instant firstWrite;

    GitOpsWriter(Workload workload, KubernetesClient client, String namespace, String name, Consumer<String> happened) {
        this.gitOps = workload.gitOps();
        this.manifest = new LinkedHashMap<>();
        workload.cluster().groups().forEach(group -> manifest.put(group.name(), group.replicas() == null ? group.min() : group.replicas()));
        this.client = client;
        this.namespace = namespace;
        this.name = name;
        this.happened = happened;
        this.nextAt = gitOps.everySeconds();
    }

    /** Syncs if a sync is due at {@code now} (workload seconds) and the tool still syncs this cluster. */
    void tick(double now) {
        if (now < nextAt || stopped(now)) {
            return;
        }
        nextAt = now + gitOps.everySeconds();
        RayCluster live = client.resources(RayCluster.class).inNamespace(namespace).withName(name).get();
        List<String> drift = drift(live);
        if (live == null || drift.isEmpty()) {
            return;
        }
        Edits.retryingConflicts(client.resources(RayCluster.class).inNamespace(namespace).withName(name), cluster -> {
            for (WorkerGroupSpecs group : cluster.getSpec().getWorkerGroupSpecs()) {
                Integer replicas = manifest.get(group.getGroupName());
                if (replicas != null) {
                    group.setReplicas(replicas);
                    group.setScaleStrategy(null);
                }
            }
            cluster.getMetadata().setManagedFields(owning(cluster.getMetadata().getManagedFields()));
            return cluster;
        });
        writes++;
        firstWrite = firstWrite == null ? Instant.now() : firstWrite;
        happened.accept(gitOps.manager() + " syncs the manifest: " + String.join(", ", drift));
    }

    /** Whether it no longer syncs the cluster at {@code now} (workload seconds): never, without an end. */
    boolean stopped(double now) {
        return gitOps.untilSeconds() != null && now >= gitOps.untilSeconds();
    }

    /** When it first wrote the RayCluster (the real clock, as the services' results are stamped), or null. */
    Instant firstWrite() {
        return firstWrite;
    }

    /** How many times it wrote the RayCluster. */
    int writes() {
        return writes;
    }

    private List<String> drift(RayCluster live) {
        List<String> drift = new ArrayList<>();
        if (live == null) {
            return drift;
        }
        for (WorkerGroupSpecs group : live.getSpec().getWorkerGroupSpecs()) {
            Integer replicas = manifest.get(group.getGroupName());
            boolean listed = group.getScaleStrategy() != null && group.getScaleStrategy().getWorkersToDelete() != null
                    && !group.getScaleStrategy().getWorkersToDelete().isEmpty();
            if (replicas != null && (!replicas.equals(group.getReplicas()) || listed)) {
                drift.add(group.getGroupName() + " replicas " + group.getReplicas() + " -> " + replicas + (listed ? ", workersToDelete cleared" : ""));
            }
        }
        return drift;
    }

    /** The managed fields after this write: the manager's entry owns workerGroupSpecs, every other entry loses it. */
    private List<ManagedFieldsEntry> owning(List<ManagedFieldsEntry> before) {
        List<ManagedFieldsEntry> after = new ArrayList<>();
        for (ManagedFieldsEntry entry : before == null ? List.<ManagedFieldsEntry>of() : before) {
            if (!gitOps.manager().equals(entry.getManager())) {
                after.add(entry);
            }
        }
        FieldsV1 fields = new FieldsV1();
        fields.setAdditionalProperty("f:spec", Map.of("f:workerGroupSpecs", Map.of()));
        after.add(new ManagedFieldsEntryBuilder().withManager(gitOps.manager()).withOperation("Update").withApiVersion("ray.io/v1")
                .withFieldsType("FieldsV1").withFieldsV1(fields).withTime(Instant.now().toString()).build());
        return after;
    }
}
