package dev.rayscale.bench;

import dev.rayscale.demo.ProcessStats;
import dev.rayscale.demo.RayscaleServices;
import dev.rayscale.gcs.proto.NodeStatus;
import dev.rayscale.kuberay.RayLabels;
import dev.rayscale.sim.ClusterSimulator;
import dev.rayscale.sim.FakeGcs;
import dev.rayscale.sim.Fleet;
import dev.rayscale.sim.GcsStates;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.ray.v1.RayCluster;
import io.ray.v1.RayClusterSpec;
import io.ray.v1.rayclusterspec.HeadGroupSpec;
import io.ray.v1.rayclusterspec.WorkerGroupSpecs;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.function.Consumer;
import java.util.stream.IntStream;

/**
 * Load on one demand-collector process: many opted-in clusters (RayClusters in an embedded API
 * server, one fake GCS answering for all of them), polled at the collector's default 1 s interval,
 * optionally each with running worker pods for the collector to cache, labelled and specified as KubeRay
 * makes them. Measures the process's CPU use and resident memory from /proc, and the snapshot lag (from
 * reading a cluster's state to its snapshot on the broker) from the collector's own histogram.
 */
public final class CollectorBench {

    /** What was measured. */
    public record Figures(int clusters, int pods, double seconds, double cpuCores, long rssMiB, double snapshotsPerSecond, double lagP50Ms,
            double lagP99Ms, double lagMaxMs) {

        public String line() {
            return String.format(Locale.ROOT, "collector-bench: clusters=%d pods=%d cpu_cores=%.2f rss_mib=%d snapshots_per_s=%.0f "
                    + "lag_p50_ms=%.1f lag_p99_ms=%.1f lag_max_ms=%.1f", clusters, pods, cpuCores, rssMiB, snapshotsPerSecond, lagP50Ms,
                    lagP99Ms, lagMaxMs);
        }
    }

    private CollectorBench() {
    }

    /** @param podsPerCluster running worker pods in each cluster */
    public static Figures run(int clusters, int podsPerCluster, Duration measured, String bootstrapServers, Path root, Path work,
            List<String> jvmOptions, Consumer<String> out) {
        ClusterSimulator.ApiServer api = ClusterSimulator.fleetApiServer(false);
        KubernetesClient client = api.client();
        try (FakeGcs gcs = FakeGcs.start()) {
            gcs.serve(GcsStates.state(1).node("head", "head", "headgroup", NodeStatus.RUNNING,
                    Map.of("memory", 2e9), Map.of("memory", 2e9), 0).tasks(Map.of("CPU", 1.0), 3).build());
            out.accept("creating " + clusters + " opted-in RayClusters ...");
            for (int i = 0; i < clusters; i++) {
                client.resources(RayCluster.class).inNamespace(Fleet.namespaceOf(i)).resource(cluster(i, gcs.address())).create();
            }
            try (RayscaleServices services = new RayscaleServices(root, work.resolve("logs"), bootstrapServers,
                    "http://127.0.0.1:" + api.server().getPort(), "bench")) {
                services.start(RayscaleServices.Service.COLLECTOR, jvmOptions);
                long pid = services.pid(RayscaleServices.Service.COLLECTOR);
                int port = services.port(RayscaleServices.Service.COLLECTOR);
                if (podsPerCluster > 0) {
                    // After the collector's first list, as a fleet grows: fabric8's mock, unlike an API server, would
                    // otherwise send every existing pod again when the informer starts watching from its list's version.
                    out.accept("collector up (pid " + pid + "); creating " + podsPerCluster + " running worker pods in each cluster ...");
                    IntStream.range(0, clusters).parallel().forEach(i -> IntStream.range(0, podsPerCluster)
                            .forEach(p -> client.pods().inNamespace(Fleet.namespaceOf(i)).resource(workerPod(i, p)).create()));
                }
                out.accept("collector up (pid " + pid + "); warming up 20 s ...");
                Thread.sleep(20_000);
                long cpuBefore = ProcessStats.cpuTicks(pid);
                Map<String, Double> metricsBefore = ProcessStats.metrics(port);
                long start = System.nanoTime();
                out.accept("measuring " + measured.toSeconds() + " s ...");
                Thread.sleep(measured.toMillis());
                double seconds = (System.nanoTime() - start) / 1e9;
                long cpuAfter = ProcessStats.cpuTicks(pid);
                Map<String, Double> metricsAfter = ProcessStats.metrics(port);
                long rss = ProcessStats.rssKiB(pid) / 1024;
                double published = value(metricsAfter, "rayscale_collector_snapshots_published_total{outcome=\"sent\"")
                        - value(metricsBefore, "rayscale_collector_snapshots_published_total{outcome=\"sent\"");
                return new Figures(clusters, clusters * podsPerCluster, seconds, (cpuAfter - cpuBefore) / 100.0 / seconds, rss, published / seconds,
                        quantile(metricsBefore, metricsAfter, 0.5), quantile(metricsBefore, metricsAfter, 0.99),
                        value(metricsAfter, "rayscale_collector_snapshot_lag_seconds_max") * 1000);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        } finally {
            api.server().destroy();
        }
    }

    private static RayCluster cluster(int index, String gcsAddress) {
        RayCluster cluster = new RayCluster();
        cluster.setMetadata(new ObjectMetaBuilder().withName("c" + index).withNamespace(Fleet.namespaceOf(index))
                .addToAnnotations("rayscale.dev/autoscaling", "enabled").addToAnnotations("rayscale.dev/gcs-address", gcsAddress).build());
        RayClusterSpec spec = new RayClusterSpec();
        HeadGroupSpec head = new HeadGroupSpec();
        head.setRayStartParams(Map.of("num-cpus", "0"));
        spec.setHeadGroupSpec(head);
        WorkerGroupSpecs group = new WorkerGroupSpecs();
        group.setGroupName("workers");
        group.setReplicas(0);
        group.setMinReplicas(0);
        group.setMaxReplicas(10);
        group.setRayStartParams(Map.of("num-cpus", "1"));
        spec.setWorkerGroupSpecs(new ArrayList<>(List.of(group)));
        cluster.setSpec(spec);
        return cluster;
    }

    /** A worker pod as KubeRay creates one and a kubelet reports it running: the labels, one container, a status. */
    private static Pod workerPod(int clusterIndex, int index) {
        String cluster = "c" + clusterIndex;
        String name = cluster + "-workers-worker-" + index;
        return new PodBuilder().withNewMetadata().withName(name).withNamespace(Fleet.namespaceOf(clusterIndex)).withUid(UUID.randomUUID().toString())
                .withCreationTimestamp(Instant.now().toString())
                .addToLabels(Map.of(RayLabels.CLUSTER, cluster, RayLabels.GROUP, "workers", RayLabels.NODE_TYPE, "worker",
                        RayLabels.IS_RAY_NODE, "yes", RayLabels.IDENTIFIER, cluster + "-worker", "app.kubernetes.io/created-by", "kuberay-operator",
                        "app.kubernetes.io/name", "kuberay"))
                .addToAnnotations("ray.io/ft-enabled", "false").addToFinalizers("ray.io/worker-termination")
                .addNewOwnerReference().withApiVersion("ray.io/v1").withKind("RayCluster").withName(cluster).withUid(UUID.randomUUID().toString())
                .withController(true).withBlockOwnerDeletion(true).endOwnerReference().endMetadata()
                .withNewSpec().withRestartPolicy("Never").addNewContainer().withName("ray-worker").withImage("rayproject/ray:2.41.0")
                .withCommand("/bin/bash", "-lc", "--").withArgs("ulimit -n 65536; ray start --address=" + cluster + "-head-svc:6379 --block")
                .addNewEnv().withName("RAY_CLUSTER_NAME").withValue(cluster).endEnv()
                .addNewEnv().withName("FQ_RAY_IP").withValue(cluster + "-head-svc.bench.svc.cluster.local").endEnv()
                .withNewResources().addToLimits("cpu", new Quantity("1")).addToLimits("memory", new Quantity("1Gi"))
                .addToRequests("cpu", new Quantity("1")).addToRequests("memory", new Quantity("1Gi")).endResources()
                .endContainer().endSpec()
                .withNewStatus().withPhase("Running").withPodIP("10.0." + (index / 250) + "." + (index % 250))
                .addNewCondition().withType("PodScheduled").withStatus("True").endCondition()
                .addNewCondition().withType("Ready").withStatus("True").endCondition()
                .addNewContainerStatus().withName("ray-worker").withReady(true).withNewState().withNewRunning()
                .withStartedAt(Instant.now().toString()).endRunning().endState().endContainerStatus()
                .endStatus().build();
    }

    private static double value(Map<String, Double> metrics, String prefix) {
        return metrics.entrySet().stream().filter(e -> e.getKey().startsWith(prefix)).mapToDouble(Map.Entry::getValue).sum();
    }

    /** A quantile of the lag over the measured window, from the difference of the cumulative histogram buckets. */
    private static double quantile(Map<String, Double> before, Map<String, Double> after, double q) {
        TreeMap<Double, Double> buckets = new TreeMap<>();
        after.forEach((key, count) -> {
            if (key.startsWith("rayscale_collector_snapshot_lag_seconds_bucket")) {
                String le = key.substring(key.indexOf("le=\"") + 4, key.indexOf('"', key.indexOf("le=\"") + 4));
                double bound = le.equals("+Inf") ? Double.POSITIVE_INFINITY : Double.parseDouble(le);
                buckets.put(bound, count - before.getOrDefault(key, 0.0));
            }
        });
        double total = buckets.isEmpty() ? 0 : buckets.lastEntry().getValue();
        for (Map.Entry<Double, Double> bucket : buckets.entrySet()) {
            if (bucket.getValue() >= q * total) {
                return bucket.getKey() * 1000;
            }
        }
        return Double.NaN;
    }
}
