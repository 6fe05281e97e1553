package dev.rayscale.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rayscale.gcs.proto.AutoscalerStateServiceGrpc;
import dev.rayscale.gcs.proto.DrainNodeReason;
import dev.rayscale.gcs.proto.GetClusterResourceStateRequest;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.ray.v1.RayCluster;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The faults the demo injects behave as the failures they stand for, and spare the simulated cluster's own parts. */
class InjectedFaultsTest {

    private final SimFixture f = SimFixture.start();
    private final KubernetesClient outsider = new KubernetesClientBuilder().withConfig(new ConfigBuilder(Config.empty())
            .withMasterUrl(f.sim.apiServerUrl()).withRequestTimeout(200).withRequestRetryBackoffLimit(0).build()).build();
    private final HttpClient http = HttpClient.newHttpClient();
    private final ManagedChannel channel = ManagedChannelBuilder.forTarget(f.sim.gcsAddress()).usePlaintext().build();

    @AfterEach
    void close() {
        channel.shutdownNow();
        outsider.close();
        f.close();
    }

    /** Every outside write fails; some of them landed all the same, exactly as many as the faults that say so. */
    @Test
    void apiFaultsFailOutsideWritesAndSomeOfThoseLandedAnyway() throws Exception {
        f.sim.apiFaults().inject(1.0, 7, Duration.ofMillis(400));
        int landed = 0;
        for (int i = 1; i <= 40; i++) {
            int status = rawPatch("[{\"op\":\"add\",\"path\":\"/metadata/annotations/attempt\",\"value\":\"" + i + "\"}]");
            assertThat(status).as("an error or no answer in time").isNotIn(200, 201);
            // The cluster's own client is spared: it reads what really happened.
            landed += String.valueOf(i).equals(f.cluster().getMetadata().getAnnotations().get("attempt")) ? 1 : 0;
        }

        Map<String, Integer> injected = f.sim.apiFaults().injected();
        assertThat(injected.values().stream().mapToInt(Integer::intValue).sum()).isEqualTo(40);
        assertThat(injected.keySet()).allMatch(kind -> kind.startsWith("PATCH "));
        assertThat(landed).isPositive().isLessThan(40)
                .isEqualTo(injected.getOrDefault("PATCH applied-then-503", 0) + injected.getOrDefault("PATCH applied-then-timeout", 0));
    }

    /** A PATCH as any client sends it; the status, or -1 if no answer came within 200 ms. */
    private int rawPatch(String jsonPatch) throws Exception {
        HttpRequest request = HttpRequest.newBuilder(URI.create(f.sim.apiServerUrl() + "/apis/ray.io/v1/namespaces/default/rayclusters/" + SimFixture.NAME))
                .method("PATCH", HttpRequest.BodyPublishers.ofString(jsonPatch)).header("Content-Type", "application/json-patch+json")
                .timeout(Duration.ofMillis(200)).build();
        try {
            return http.send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
        } catch (HttpTimeoutException noAnswer) {
            return -1;
        }
    }

    @Test
    void theFirstScaleDownMeetsOneConflictAndIsNotApplied() {
        f.sim.apiFaults().conflictOnNextScaleDown();
        var cluster = outsider.resources(RayCluster.class).inNamespace("default").withName(SimFixture.NAME);
        cluster.patch(PatchContext.of(PatchType.JSON), "[{\"op\":\"replace\",\"path\":\"/spec/workerGroupSpecs/0/replicas\",\"value\":2}]");
        String scaleDown = "[{\"op\":\"replace\",\"path\":\"/spec/workerGroupSpecs/0/replicas\",\"value\":1},"
                + "{\"op\":\"add\",\"path\":\"/spec/workerGroupSpecs/0/scaleStrategy\",\"value\":{\"workersToDelete\":[\"conf-cpu-worker-a\"]}}]";

        assertThatThrownBy(() -> cluster.patch(PatchContext.of(PatchType.JSON), scaleDown))
                .isInstanceOfSatisfying(KubernetesClientException.class, e -> assertThat(e.getCode()).isEqualTo(409));
        assertThat(f.cluster().getSpec().getWorkerGroupSpecs().get(0).getReplicas()).as("a scale-up passes; the refused scale-down left nothing")
                .isEqualTo(2);

        cluster.patch(PatchContext.of(PatchType.JSON), scaleDown);
        assertThat(f.cluster().getSpec().getWorkerGroupSpecs().get(0).getReplicas()).isEqualTo(1);
        assertThat(f.sim.apiFaults().injected()).containsExactly(Map.entry("PATCH 409", 1));
        assertThat(f.sim.apiFaults().scaleDownConflictSent()).isNotNull();
    }

    @Test
    void aGcsOutageFailsEveryCallUntilItsWindowCloses() {
        f.sim.gcsFaults().failFor(10);

        assertThatThrownBy(f::read).isInstanceOfSatisfying(StatusRuntimeException.class,
                e -> assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.UNAVAILABLE));
        f.advance(10.25);
        assertThat(f.read().getClusterResourceStateVersion()).isPositive();
        assertThat(f.sim.gcsFaults().active()).isFalse();
    }

    /** A hung call ends only at its caller's deadline, or fails when the hang ends; later calls are answered. */
    @Test
    void aGcsHangLeavesCallsUnansweredUntilTheCallerGivesUpOrTheHangEnds() throws Exception {
        f.sim.gcsFaults().hangFor(10);

        assertThatThrownBy(() -> stub().withDeadlineAfter(300, TimeUnit.MILLISECONDS).getClusterResourceState(request()))
                .isInstanceOfSatisfying(StatusRuntimeException.class, e -> assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.DEADLINE_EXCEEDED));
        CompletableFuture<Object> waiting = CompletableFuture.supplyAsync(() -> stub().withDeadlineAfter(30, TimeUnit.SECONDS)
                .getClusterResourceState(request()));
        org.awaitility.Awaitility.await().during(Duration.ofMillis(300)).atMost(Duration.ofSeconds(2)).until(() -> !waiting.isDone());

        f.advance(10.25);

        assertThat(waiting).failsWithin(Duration.ofSeconds(5)).withThrowableOfType(ExecutionException.class)
                .havingCause().isInstanceOfSatisfying(StatusRuntimeException.class, e -> assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.UNAVAILABLE));
        assertThat(stub().withDeadlineAfter(5, TimeUnit.SECONDS).getClusterResourceState(request()).hasClusterResourceState()).isTrue();
    }

    @Test
    void theDrainHookRunsOnceAfterTheGcsAcceptsADrain() {
        var pods = f.running("cpu", 2);
        AtomicInteger runs = new AtomicInteger();
        f.sim.gcsFaults().onNextDrainAccepted(runs::incrementAndGet);

        for (String pod : pods) {
            assertThat(f.drain(SimFixture.id(f.aliveNodeOf(pod)), DrainNodeReason.DRAIN_NODE_REASON_IDLE_TERMINATION, 0).getIsAccepted()).isTrue();
        }

        assertThat(runs).hasValue(1);
    }

    private AutoscalerStateServiceGrpc.AutoscalerStateServiceBlockingStub stub() {
        return AutoscalerStateServiceGrpc.newBlockingStub(channel);
    }

    private static GetClusterResourceStateRequest request() {
        return GetClusterResourceStateRequest.getDefaultInstance();
    }
}
