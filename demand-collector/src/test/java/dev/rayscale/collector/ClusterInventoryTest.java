package dev.rayscale.collector;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.rayscale.kuberay.RayLabels;
import dev.rayscale.testsupport.RayClusterCrd;
import dev.rayscale.testsupport.RayClusters;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.runtime.configuration.DurationConverter;
import io.ray.v1.RayCluster;
import io.smallrye.config.SmallRyeConfigBuilder;
import java.io.IOException;
import java.net.InetAddress;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The collector's informers against an API server whose lists fail at first (restarting, or the collector's RBAC not yet
 * applied): they keep trying, where fabric8's own rule gives the informer up for good.
 */
class ClusterInventoryTest {

    private static final Duration WITHIN = Duration.ofSeconds(30);
    /** An informer's list (a GET of a collection that is not a watch) of RayClusters or pods. */
    private static final Pattern LIST = Pattern.compile("/(apis/ray\\.io/v1/rayclusters|api/v1/pods)\\?(?!.*watch=true).*");

    private final AtomicInteger listsToFail = new AtomicInteger();
    private final AtomicInteger listsFailed = new AtomicInteger();
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private KubernetesMockServer server;
    private KubernetesClient client;
    private ClusterInventory inventory;

    @BeforeEach
    void start() throws Exception {
        KubernetesCrudDispatcher failingFirst = new KubernetesCrudDispatcher() {
            @Override
            public MockResponse dispatch(RecordedRequest request) {
                if ("GET".equals(request.getMethod()) && LIST.matcher(request.getPath()).matches()
                        && listsToFail.getAndUpdate(left -> Math.max(0, left - 1)) > 0) {
                    listsFailed.incrementAndGet();
                    return new MockResponse().setResponseCode(503).setBody("{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":\"Failure\","
                            + "\"reason\":\"ServiceUnavailable\",\"code\":503,\"message\":\"the server is restarting\"}");
                }
                return super.dispatch(request);
            }
        };
        server = new KubernetesMockServer(new Context(), new MockWebServer(), new HashMap<>(), failingFirst, false);
        server.init(InetAddress.getByName("127.0.0.1"), 0);
        // No retries inside the client: each failed list reaches the informer at once.
        client = server.createClient(builder -> builder.editOrNewConfig().withRequestRetryBackoffLimit(0).endConfig());
        RayClusterCrd.register(client);
    }

    @AfterEach
    void stop() {
        if (inventory != null) {
            inventory.stop(new ShutdownEvent());
        }
        client.close();
        server.destroy();
    }

    @Test
    void informersWhoseFirstListsFailKeepTryingUntilTheySync() {
        RayCluster cluster = client.resources(RayCluster.class).inNamespace("default").resource(RayClusters.walkthrough("default", "early")).create();
        client.pods().inNamespace("default").resource(RayClusters.headPod(cluster, "early-head")).create();
        listsToFail.set(4);

        inventory = new ClusterInventory(client, defaults(), new CollectorMetrics(registry));
        inventory.start(new StartupEvent());

        await().atMost(WITHIN).until(inventory::synced);
        assertThat(listsFailed).as("every failure answered was one the informers met").hasValue(4);
        assertThat(inventory.clusters()).extracting(found -> found.getMetadata().getName()).containsExactly("early");
        assertThat(inventory.pods("default/early")).extracting(pod -> pod.name()).containsExactly("early-head");
        assertThat(registry.find("rayscale.collector.kubernetes.failures").counters())
                .as("counted by kind").extracting(counter -> counter.getId().getTag("kind")).containsExactlyInAnyOrder("rayclusters", "pods");
        assertThat(registry.find("rayscale.collector.kubernetes.failures").counters().stream().mapToDouble(counter -> counter.count()).sum())
                .isEqualTo(4);

        client.resources(RayCluster.class).inNamespace("default").resource(RayClusters.walkthrough("default", "later")).create();
        await().atMost(WITHIN).untilAsserted(() -> assertThat(inventory.clusters()).hasSize(2));
        assertThat(inventory.watching()).isTrue();
    }

    @Test
    void tellsOfEachClusterDeleted() {
        RayCluster kept = client.resources(RayCluster.class).inNamespace("default").resource(RayClusters.walkthrough("default", "kept")).create();
        RayCluster deleted = client.resources(RayCluster.class).inNamespace("default").resource(RayClusters.walkthrough("default", "deleted")).create();
        List<String> told = new CopyOnWriteArrayList<>();
        inventory = new ClusterInventory(client, defaults(), new CollectorMetrics(registry));
        inventory.whenDeleted(cluster -> told.add(cluster.getMetadata().getUid()));
        inventory.start(new StartupEvent());
        await().atMost(WITHIN).until(inventory::synced);

        client.resource(deleted).delete();

        await().atMost(WITHIN).untilAsserted(() -> assertThat(told).containsExactly(deleted.getMetadata().getUid()));
        assertThat(inventory.clusters()).extracting(cluster -> cluster.getMetadata().getUid()).containsExactly(kept.getMetadata().getUid());
    }

    @Test
    void saysWhatTheRefusalsAnInstallMeetsFirstMean() {
        KubernetesClientException forbidden = new KubernetesClientException("rayclusters.ray.io is forbidden", 403, null);
        KubernetesClientException notFound = new KubernetesClientException("the server could not find the requested resource", 404, null);

        assertThat(ClusterInventory.hint("pods", new CompletionException(forbidden))).contains("ClusterRole");
        assertThat(ClusterInventory.hint("rayclusters", notFound)).contains("is KubeRay's CRD");
        assertThat(ClusterInventory.hint("pods", notFound)).isEmpty();
        assertThat(ClusterInventory.hint("rayclusters", new KubernetesClientException("the server is restarting", 503, null))).isEmpty();
        assertThat(ClusterInventory.hint("rayclusters", new IOException("connection refused"))).isEmpty();
    }

    private static CollectorConfig defaults() {
        return new SmallRyeConfigBuilder().withMapping(CollectorConfig.class)
                .withConverter(Duration.class, 200, new DurationConverter()).build().getConfigMapping(CollectorConfig.class);
    }

    /** Why the collector sets its own rule: with fabric8's, an informer whose first list fails stops for good. */
    @Test
    void fabric8GivesUpAnInformerWhoseFirstListFails() {
        listsToFail.set(1);
        SharedIndexInformer<Pod> informer = client.pods().inAnyNamespace().withLabel(RayLabels.CLUSTER).runnableInformer(0);
        informer.start();

        await().atMost(WITHIN).until(() -> informer.stopped().toCompletableFuture().isDone());
        assertThat(informer.stopped().toCompletableFuture()).isCompletedExceptionally();
        assertThat(informer.hasSynced()).isFalse();
        informer.close();
    }
}
