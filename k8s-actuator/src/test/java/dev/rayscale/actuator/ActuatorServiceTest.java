package dev.rayscale.actuator;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;

import com.fasterxml.jackson.databind.JsonNode;
import dev.rayscale.actuator.core.AppliedMark;
import dev.rayscale.actuator.core.ObservedCluster;
import dev.rayscale.events.ActuationCause;
import dev.rayscale.events.ActuationResult;
import dev.rayscale.events.Annotations;
import dev.rayscale.events.CloudEventHeaders;
import dev.rayscale.events.DrainRejection;
import dev.rayscale.events.InfeasibleDemand;
import dev.rayscale.events.InfeasibleReason;
import dev.rayscale.events.Outcome;
import dev.rayscale.events.PendingLaunch;
import dev.rayscale.events.Resources;
import dev.rayscale.events.ScaleDecision;
import dev.rayscale.events.Topics;
import dev.rayscale.events.codec.DecisionSerializer;
import dev.rayscale.events.codec.EventCodec;
import dev.rayscale.gcs.proto.ClusterResourceState;
import dev.rayscale.gcs.proto.DrainNodeReply;
import dev.rayscale.gcs.proto.NodeStatus;
import dev.rayscale.kuberay.RayLabels;
import dev.rayscale.sim.FakeGcs;
import dev.rayscale.sim.GcsStates;
import dev.rayscale.testsupport.KubernetesCalls;
import dev.rayscale.testsupport.KafkaBrokerResource;
import dev.rayscale.testsupport.RayClusterCrd;
import dev.rayscale.testsupport.RayClusters;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.FieldsV1;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ManagedFieldsEntryBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.fabric8.zjsonpatch.JsonPatch;
import io.fabric8.zjsonpatch.JsonPatchException;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.kafka.InjectKafkaCompanion;
import io.quarkus.test.kubernetes.client.KubernetesServer;
import io.quarkus.test.kubernetes.client.KubernetesTestServer;
import io.quarkus.test.kubernetes.client.WithKubernetesTestServer;
import io.ray.v1.RayCluster;
import io.ray.v1.rayclusterspec.AuthOptions;
import io.smallrye.config.SmallRyeConfig;
import io.smallrye.config.SmallRyeConfigProviderResolver;
import io.smallrye.reactive.messaging.kafka.api.IncomingKafkaRecordMetadata;
import io.smallrye.reactive.messaging.kafka.companion.ConsumerTask;
import io.smallrye.reactive.messaging.kafka.companion.KafkaCompanion;
import jakarta.inject.Inject;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.stream.IntStream;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.record.TimestampType;
import org.assertj.core.api.InstanceOfAssertFactories;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.eclipse.microprofile.reactive.messaging.Metadata;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The actuator with real parts: the fabric8 mock API server (CRUD, KubeRay's CRD registered), a real
 * Kafka broker, and a fake GCS answering drains and reports. Where the mock cannot act as a real API
 * server (a failed JSON Patch test gets no answer from it; a 5xx), the answer is scripted.
 */
@QuarkusTest
@WithTestResource(KafkaBrokerResource.class)
@WithKubernetesTestServer(crud = true, setup = RayClusterCrd.class)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ActuatorServiceTest {

    private static final Duration WITHIN = Duration.ofSeconds(20);

    @InjectKafkaCompanion
    KafkaCompanion kafka;

    @KubernetesTestServer
    KubernetesServer server;

    /** What the service calls in the API server, held to the grants deploy/README.md documents ({@link KubernetesCalls}). */
    private static final KubernetesCalls.Ledger CALLS = new KubernetesCalls.Ledger("k8s-actuator");

    /** The service's client; the test makes its own requests with {@link #kubernetes}, told apart from the service's. */
    @Inject
    KubernetesClient serviceClient;

    KubernetesClient kubernetes;

    @Inject
    ActuationService actuation;

    @Inject
    DecisionConsumer consumer;

    @Inject
    ClusterReports reports;

    private FakeGcs gcs;
    private ConsumerTask<String, byte[]> results;

    @BeforeEach
    void start() {
        kubernetes = KubernetesCalls.setupClient(serviceClient);
        gcs = FakeGcs.start();
        results = kafka.consume(String.class, byte[].class).fromTopics(Topics.ACTUATIONS);
    }

    @AfterEach
    void stop() throws InterruptedException {
        assertThat(CALLS.ungranted(server.getKubernetesMockServer())).as("API calls the chart does not grant").isEmpty();
        kubernetes.close();
        results.close();
        gcs.close();
    }

    @Test
    void scalesUpAndSaysSo() {
        RayCluster cluster = create(unique("up"), 0);
        ScaleDecision decision = Decisions.scale(cluster, 10, 0, 15, List.of());

        send(decision);

        ActuationResult result = awaitResult(decision);
        assertThat(result.outcome()).isEqualTo(Outcome.APPLIED);
        assertThat(result.cause()).isEqualTo(ActuationCause.PATCHED);
        assertThat(result.groups()).singleElement().satisfies(g -> {
            assertThat(g.replicasBefore()).isZero();
            assertThat(g.replicasAfter()).isEqualTo(15);
        });
        RayCluster now = read(cluster);
        assertThat(now.getSpec().getWorkerGroupSpecs().get(0).getReplicas()).isEqualTo(15);
        assertThat(now.getMetadata().getAnnotations()).containsEntry(AppliedMark.SEQUENCE, "10").containsEntry(AppliedMark.DECISION, decision.id());
        assertThat(result.resourceVersionAfter()).isEqualTo(now.getMetadata().getResourceVersion());
        assertThat(eventsSent(cluster)).anyMatch(e -> "ScaledUp".equals(e.getReason()) && e.getMessage().contains(decision.id()));
        await().atMost(WITHIN).until(() -> !gcs.reports().isEmpty());
        assertThat(gcs.reports().get(0).getAutoscalingState().getPendingInstanceRequestsList()).as("ray status counts entries")
                .hasSize(15).allSatisfy(entry -> assertThat(entry.getCount()).isEqualTo(1));
        ConsumerRecord<String, byte[]> record = results.getRecords().stream()
                .filter(r -> decision.id().equals(EventCodec.ACTUATIONS.decode(r.value()).decisionId())).findFirst().orElseThrow();
        assertThat(record.key()).isEqualTo(decision.cluster().id());
        assertThat(CloudEventHeaders.read(record.headers(), CloudEventHeaders.TYPE)).isEqualTo("dev.rayscale.actuation.v1");
    }

    /** With KubeRay's token authentication, the GCS is told with the token from the Secret KubeRay makes for the cluster. */
    @Test
    void tellsATokenAuthenticatedGcsWithTheClustersToken() {
        String name = unique("token");
        kubernetes.secrets().inNamespace("default").resource(new SecretBuilder().withNewMetadata().withName(name).endMetadata()
                .addToData("auth_token", Base64.getEncoder().encodeToString("actuator-s3cret".getBytes(StandardCharsets.UTF_8))).build())
                .create();
        gcs.requireToken("actuator-s3cret");
        RayCluster secured = RayClusters.walkthrough("default", name);
        AuthOptions auth = new AuthOptions();
        auth.setMode(AuthOptions.Mode.TOKEN);
        secured.getSpec().setAuthOptions(auth);
        RayCluster cluster = createCluster(secured, 0);
        ScaleDecision decision = Decisions.scale(cluster, 10, 0, 2, List.of());

        send(decision);

        assertThat(awaitResult(decision).outcome()).isEqualTo(Outcome.APPLIED);
        await().atMost(WITHIN).until(() -> !gcs.reports().isEmpty());
        assertThat(gcs.authorizations()).contains("Bearer actuator-s3cret");
    }

    /** A RayCluster written by a newer KubeRay (a field and an enum value this model does not know) is scaled, and keeps them. */
    @Test
    void scalesARayClusterOfANewerKubeRayAndLeavesWhatItDoesNotKnow() {
        RayCluster typed = withGcs(RayClusters.walkthrough("default", unique("newer")), gcs.address(), 0);
        RayClusters.createAsOfANewerKubeRay(kubernetes, typed);
        RayCluster cluster = read(typed);
        ScaleDecision decision = Decisions.scale(cluster, 10, 0, 4, List.of());

        send(decision);

        assertThat(awaitResult(decision).outcome()).isEqualTo(Outcome.APPLIED);
        assertThat(read(cluster).getSpec().getWorkerGroupSpecs().get(0).getReplicas()).isEqualTo(4);
        Map<String, Object> stored = kubernetes.genericKubernetesResources("ray.io/v1", "RayCluster").inNamespace("default")
                .withName(cluster.getMetadata().getName()).get().getAdditionalProperties();
        assertThat(stored.get("spec")).asInstanceOf(InstanceOfAssertFactories.MAP)
                .containsAllEntriesOf(RayClusters.NEWER_FIELD).containsEntry("autoscalerOptions", RayClusters.NEWER_AUTOSCALER_OPTIONS);
    }

    @Test
    void drainsFirstAndDeletesOnlyWhatRayAccepted() {
        RayCluster cluster = create(unique("down"), 3);
        String a = cluster.getMetadata().getName() + "-idle-a";
        String b = cluster.getMetadata().getName() + "-idle-b";
        pods(cluster, a, b, cluster.getMetadata().getName() + "-busy-c");
        gcs.serve(nodes(a, b));
        gcs.answerDrains(request -> DrainNodeReply.newBuilder()
                .setIsAccepted(!new String(request.getNodeId().toByteArray(), StandardCharsets.UTF_8).equals(b))
                .setRejectionReasonMessage("the node is running a task").build());
        ScaleDecision decision = Decisions.scale(cluster, 11, 3, 1, List.of(Decisions.idle(a), Decisions.idle(b)));

        send(decision);

        ActuationResult result = awaitResult(decision);
        assertThat(result.outcome()).isEqualTo(Outcome.APPLIED);
        var group = read(cluster).getSpec().getWorkerGroupSpecs().get(0);
        assertThat(group.getScaleStrategy().getWorkersToDelete()).containsExactly(a);
        assertThat(group.getReplicas()).as("drops by exactly the pods named").isEqualTo(2);
        assertThat(result.groups().get(0).drainRejected()).singleElement()
                .satisfies(r -> assertThat(r.reason()).contains("the node is running a task"));
        assertThat(gcs.drainRequests()).hasSize(2)
                .allSatisfy(drain -> assertThat(drain.getReason().getNumber()).as("IDLE_TERMINATION").isEqualTo(1));
        assertThat(eventsSent(cluster)).anyMatch(e -> "DrainRejected".equals(e.getReason()) && e.getMessage().contains(b));
    }

    /**
     * A scale-down's drains are asked side by side, so that it takes about one round trip to the GCS rather than one per
     * node: this GCS answers no drain before all four have arrived (and would refuse after 0.9 s, within the actuator's
     * 1 s deadline); drains asked one after another would be refused, and no pod named.
     */
    @Test
    void drainsAreAskedSideBySide() {
        RayCluster cluster = create(unique("side-by-side"), 5);
        List<String> idle = List.of("a", "b", "c", "d").stream().map(pod -> cluster.getMetadata().getName() + "-idle-" + pod).toList();
        pods(cluster, idle.toArray(String[]::new));
        pods(cluster, cluster.getMetadata().getName() + "-busy-e");
        gcs.serve(nodes(idle.toArray(String[]::new)));
        CountDownLatch allAsked = new CountDownLatch(idle.size());
        gcs.answerDrains(request -> {
            allAsked.countDown();
            boolean together = awaitQuietly(allAsked, 900);
            return DrainNodeReply.newBuilder().setIsAccepted(together).setRejectionReasonMessage("asked alone").build();
        });

        ActuationResult result = actuation.apply(Decisions.scale(cluster, 12, 5, 1, idle.stream().map(Decisions::idle).toList()));

        assertThat(result.outcome()).isEqualTo(Outcome.APPLIED);
        var group = read(cluster).getSpec().getWorkerGroupSpecs().get(0);
        assertThat(group.getScaleStrategy().getWorkersToDelete()).as("in the decision's order").containsExactlyElementsOf(idle);
        assertThat(group.getReplicas()).isEqualTo(1);
    }

    /** At most {@link RayGcs#DRAINS_IN_FLIGHT} drains wait on one GCS at once; a larger scale-down is asked in turn, all of it. */
    @Test
    void theDrainsOfALargeScaleDownAreBounded() {
        int nodes = RayGcs.DRAINS_IN_FLIGHT + 8;
        RayCluster cluster = create(unique("bounded"), nodes);
        List<String> idle = IntStream.range(0, nodes).mapToObj(i -> cluster.getMetadata().getName() + "-idle-" + i).toList();
        pods(cluster, idle.toArray(String[]::new));
        gcs.serve(nodes(idle.toArray(String[]::new)));
        AtomicInteger inFlight = new AtomicInteger();
        AtomicInteger most = new AtomicInteger();
        // Each drain waits (at most half a second) for one more than the bound to be asked: only an unbounded client gets there.
        CountDownLatch oneTooMany = new CountDownLatch(RayGcs.DRAINS_IN_FLIGHT + 1);
        gcs.answerDrains(request -> {
            most.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
            oneTooMany.countDown();
            awaitQuietly(oneTooMany, 500);
            inFlight.decrementAndGet();
            return DrainNodeReply.newBuilder().setIsAccepted(true).build();
        });

        ActuationResult result = actuation.apply(Decisions.scale(cluster, 13, nodes, 0, idle.stream().map(Decisions::idle).toList()));

        assertThat(result.outcome()).isEqualTo(Outcome.APPLIED);
        assertThat(read(cluster).getSpec().getWorkerGroupSpecs().get(0).getScaleStrategy().getWorkersToDelete())
                .containsExactlyElementsOf(idle);
        assertThat(most.get()).as("drains waiting on the GCS at once").isBetween(2, RayGcs.DRAINS_IN_FLIGHT);
    }

    private static boolean awaitQuietly(CountDownLatch latch, long millis) {
        try {
            return latch.await(millis, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** Facts A4.20 and A3.11: the pod's raylet restarted since the snapshot; the drain of its old node would be accepted. */
    @Test
    void neverDrainsANodeThatIsNoLongerThePodsLiveNode() {
        RayCluster cluster = create(unique("restarted"), 2);
        String a = cluster.getMetadata().getName() + "-idle-a";
        String b = cluster.getMetadata().getName() + "-idle-b";
        pods(cluster, a, b);
        gcs.serve(GcsStates.state(1)
                .node(a + "-new-raylet", a, "small-group", NodeStatus.RUNNING, Map.of("CPU", 1.0), Map.of(), 0)
                .node(b, b, "small-group", NodeStatus.IDLE, Map.of("CPU", 1.0), Map.of("CPU", 1.0), 90_000).build());
        ScaleDecision decision = Decisions.scale(cluster, 13, 2, 0, List.of(Decisions.idle(a), Decisions.idle(b)));

        send(decision);

        ActuationResult result = awaitResult(decision);
        assertThat(result.outcome()).isEqualTo(Outcome.APPLIED);
        assertThat(gcs.drainRequests()).singleElement()
                .satisfies(drain -> assertThat(new String(drain.getNodeId().toByteArray(), StandardCharsets.UTF_8)).isEqualTo(b));
        var group = read(cluster).getSpec().getWorkerGroupSpecs().get(0);
        assertThat(group.getScaleStrategy().getWorkersToDelete()).containsExactly(b);
        assertThat(group.getReplicas()).isEqualTo(1);
        assertThat(result.groups().get(0).drainRejected()).singleElement().satisfies(r -> {
            assertThat(r.podName()).isEqualTo(a);
            assertThat(r.reason()).contains("raylet restarted");
        });
    }

    /**
     * Facts A3.14 and B8.33: a host that accepts an idle drain exits at once, and under restartPolicy Never its pod ends and
     * KubeRay deletes its whole replica, the other hosts with it. So the hosts of a replica are asked one after another,
     * the least idle by the GCS read made right before first, and none after a refusal: here a host that took work since
     * the snapshot is asked first, refuses, and no other host of its replica is drained; the other replica goes whole.
     */
    @Test
    void theHostsOfAMultiHostReplicaAreAskedInTurnTheLeastIdleFirstAndNoneAfterARefusal() {
        RayCluster spec = RayClusters.walkthrough("default", unique("multihost"));
        spec.getSpec().getWorkerGroupSpecs().get(0).setNumOfHosts(2);
        RayCluster cluster = createCluster(spec, 2);
        String prefix = cluster.getMetadata().getName() + "-";
        Map<String, String> replicaOf = Map.of(prefix + "r0-h0", "r0", prefix + "r0-h1", "r0", prefix + "r1-h0", "r1", prefix + "r1-h1", "r1");
        replicaOf.forEach((pod, replica) -> kubernetes.pods().inNamespace("default").resource(new PodBuilder(
                RayClusters.workerPod(cluster, "small-group", pod, "Running")).editMetadata().addToLabels(RayLabels.REPLICA, replica)
                .endMetadata().build()).create());
        String busyAgain = prefix + "r0-h1";
        gcs.serve(GcsStates.state(1)
                .node(prefix + "r0-h0", prefix + "r0-h0", "small-group", NodeStatus.IDLE, Map.of("CPU", 1.0), Map.of("CPU", 1.0), 120_000)
                .node(busyAgain, busyAgain, "small-group", NodeStatus.RUNNING, Map.of("CPU", 1.0), Map.of(), 0)
                .node(prefix + "r1-h0", prefix + "r1-h0", "small-group", NodeStatus.IDLE, Map.of("CPU", 1.0), Map.of("CPU", 1.0), 90_000)
                .node(prefix + "r1-h1", prefix + "r1-h1", "small-group", NodeStatus.IDLE, Map.of("CPU", 1.0), Map.of("CPU", 1.0), 120_000)
                .build());
        gcs.answerDrains(request -> new String(request.getNodeId().toByteArray(), StandardCharsets.UTF_8).equals(busyAgain)
                ? DrainNodeReply.newBuilder().setIsAccepted(false).setRejectionReasonMessage("The node to be idle terminated is no longer idle.").build()
                : DrainNodeReply.newBuilder().setIsAccepted(true).build());
        ScaleDecision decision = Decisions.scale(cluster, 14, 2, 0, replicaOf.keySet().stream().sorted().map(Decisions::idle).toList());

        send(decision);

        ActuationResult result = awaitResult(decision);
        assertThat(result.outcome()).isEqualTo(Outcome.APPLIED);
        List<String> asked = gcs.drainRequests().stream().map(drain -> new String(drain.getNodeId().toByteArray(), StandardCharsets.UTF_8)).toList();
        assertThat(asked).as("r0-h0 is never asked").containsExactlyInAnyOrder(busyAgain, prefix + "r1-h0", prefix + "r1-h1");
        assertThat(asked.indexOf(prefix + "r1-h0")).as("the less idle host of r1 first").isLessThan(asked.indexOf(prefix + "r1-h1"));
        var group = read(cluster).getSpec().getWorkerGroupSpecs().get(0);
        assertThat(group.getScaleStrategy().getWorkersToDelete()).containsExactlyInAnyOrder(prefix + "r1-h0", prefix + "r1-h1");
        assertThat(group.getReplicas()).isEqualTo(1);
        assertThat(result.groups().get(0).drainRejected()).extracting(DrainRejection::podName, DrainRejection::reason).containsExactlyInAnyOrder(
                tuple(busyAgain, "Ray refused the drain: The node to be idle terminated is no longer idle."),
                tuple(prefix + "r0-h0", "not asked: " + busyAgain + ", a host of the same multi-host replica asked before it, was not drained"));
    }

    /** A patch whose answer was lost but which had landed is reported APPLIED, not retried into a failed test op. */
    @Test
    void aPatchThatLandedButWasNotAnsweredIsReportedApplied() {
        RayCluster cluster = create(unique("landed"), 0);
        ScaleDecision decision = Decisions.scale(cluster, 14, 0, 3, List.of());
        ClusterApi answerLost = new ClusterApi(serviceClient, config(), metrics()) {
            private boolean lost;

            @Override
            public PatchOutcome patch(String namespace, String name, String jsonPatch) {
                PatchOutcome outcome = super.patch(namespace, name, jsonPatch);
                if (!lost && outcome instanceof PatchOutcome.Applied) {
                    lost = true;
                    return new PatchOutcome.Unknown("no answer: the connection was reset");
                }
                return outcome;
            }
        };
        ActuationService service = serviceOver(answerLost);

        ActuationResult result = service.apply(decision);

        assertThat(result.outcome()).isEqualTo(Outcome.APPLIED);
        assertThat(result.reason()).contains("had landed");
        assertThat(result.attempts()).isEqualTo(1);
        assertThat(read(cluster).getSpec().getWorkerGroupSpecs().get(0).getReplicas()).isEqualTo(3);
        assertThat(eventsSent(cluster)).noneMatch(e -> "StaleDecision".equals(e.getReason()));
    }

    /**
     * Fact A3.14: a node that accepted an idle drain exits at once. If the patch then conflicts, the pod
     * must still go (or its container restarts as a new idle node): the removal is finished against the
     * RayCluster as it is now, with a fresh compare-and-set; the rest of the decision is not applied.
     */
    @Test
    void drainedPodsAreStillRemovedWhenThePatchConflicts() {
        RayCluster cluster = create(unique("finish"), 3);
        String a = cluster.getMetadata().getName() + "-idle-a";
        pods(cluster, a, cluster.getMetadata().getName() + "-b", cluster.getMetadata().getName() + "-c");
        gcs.serve(nodes(a));
        ScaleDecision decision = Decisions.scale(cluster, 17, 3, 2, List.of(Decisions.idle(a)));
        ClusterApi raced = new ClusterApi(serviceClient, config(), metrics()) {
            private boolean editedMeanwhile;

            @Override
            public PatchOutcome patch(String namespace, String name, String jsonPatch) {
                if (!editedMeanwhile) {
                    // Someone raises replicas between our read and our patch; a real API server then refuses the patch's
                    // test op with 422 (the mock server of these tests would not answer it at all).
                    editedMeanwhile = true;
                    kubernetes.resources(RayCluster.class).inNamespace(namespace).withName(name).edit(c -> {
                        c.getSpec().getWorkerGroupSpecs().get(0).setReplicas(4);
                        return c;
                    });
                    return new PatchOutcome.Conflict("HTTP 422: test failed at /spec/workerGroupSpecs/0/replicas");
                }
                return super.patch(namespace, name, jsonPatch);
            }
        };
        ActuationService service = serviceOver(raced);

        ActuationResult result = service.apply(decision);

        assertThat(result.outcome()).isEqualTo(Outcome.APPLIED);
        assertThat(result.reason()).contains("conflicted", "finishing the removal of the drained pods");
        var group = read(cluster).getSpec().getWorkerGroupSpecs().get(0);
        assertThat(group.getReplicas()).as("the 4 set meanwhile, less the drained pod").isEqualTo(3);
        assertThat(group.getScaleStrategy().getWorkersToDelete()).containsExactly(a);
    }

    /**
     * The race {@code ClosedLoopTest}'s eviction-churn scenario found: while a pod's drain ran, it was lost with its node
     * and the operator, still at the old replicas, created another. The pods are read again after the drains: the lost pod
     * is no longer named and its replica is kept, so the operator finds as many pods as replicas (it would delete one of
     * its own choosing).
     */
    @Test
    void aPodReplacedWhileItsDrainRanKeepsItsReplica() {
        RayCluster cluster = threePodsOneIdle("replaced");
        String a = idlePod(cluster);
        ClusterApi churning = beforeThePodsAreReadAgain(() -> {
            kubernetes.pods().inNamespace("default").withName(a).delete();
            pods(cluster, cluster.getMetadata().getName() + "-d");
        });

        ActuationResult result = serviceOver(churning).apply(Decisions.scale(cluster, 18, 3, 2, List.of(Decisions.idle(a))));

        assertThat(result.cause()).isEqualTo(ActuationCause.DRAINS_REFUSED);
        assertThat(result.groups().get(0).drainRejected()).singleElement().satisfies(kept -> assertThat(kept.reason()).contains("was gone"));
        var group = read(cluster).getSpec().getWorkerGroupSpecs().get(0);
        assertThat(group.getReplicas()).as("b, c and the replacement d stay").isEqualTo(3);
    }

    /**
     * As above, the operator's replacement not yet made when the pods are read again: it will be, under the replicas it
     * has until it sees the patch, so a pod gone is not counted as removed whether the replacement comes before the patch
     * or after.
     */
    @Test
    void aPodLostWhileItsDrainRanKeepsItsReplicaBeforeItsReplacementExists() {
        RayCluster cluster = threePodsOneIdle("lost");
        String a = idlePod(cluster);
        ClusterApi losing = beforeThePodsAreReadAgain(() -> kubernetes.pods().inNamespace("default").withName(a).delete());

        ActuationResult result = serviceOver(losing).apply(Decisions.scale(cluster, 18, 3, 2, List.of(Decisions.idle(a))));

        assertThat(result.cause()).isEqualTo(ActuationCause.DRAINS_REFUSED);
        var group = read(cluster).getSpec().getWorkerGroupSpecs().get(0);
        assertThat(group.getReplicas()).as("b, c and the replacement to come").isEqualTo(3);
    }

    /**
     * The race {@code ClosedLoopTest}'s quota scenario found in CI: the planner gives back two replicas whose pods could
     * not be created (a quota), naming no pod; meanwhile the quota was freed and the operator created them. Lowering
     * replicas below the pods that exist would let the operator delete pods of its own choosing (fact B6.27), so a
     * decision that lowers replicas reads the pods, even on a cluster this actuator wrote last.
     */
    @Test
    void replicasGivenBackNeverDropBelowThePodsThatExist() {
        RayCluster cluster = create(unique("given-back"), 1);
        pods(cluster, cluster.getMetadata().getName() + "-a");
        assertThat(actuation.apply(Decisions.scale(cluster, 1, 1, 3, List.of())).cause()).isEqualTo(ActuationCause.PATCHED);
        pods(cluster, cluster.getMetadata().getName() + "-b", cluster.getMetadata().getName() + "-c");

        ActuationResult result = actuation.apply(Decisions.scale(cluster, 2, 3, 1, List.of()));

        assertThat(result.resourceVersionBefore()).as("read").isNotNull();
        assertThat(read(cluster).getSpec().getWorkerGroupSpecs().get(0).getReplicas()).as("a, b and c exist, none named").isEqualTo(3);
    }

    /** If the pods cannot be read again after the drains, the drained pods are still removed, counted as first read. */
    @Test
    void drainedPodsAreRemovedEvenIfThePodsCannotBeReadAgain() {
        RayCluster cluster = threePodsOneIdle("unreadable");
        ClusterApi failing = beforeThePodsAreReadAgain(() -> {
            throw new KubernetesClientException("injected: etcdserver: request timed out", 503, null);
        });

        ActuationResult result = serviceOver(failing).apply(Decisions.scale(cluster, 19, 3, 2, List.of(Decisions.idle(idlePod(cluster)))));

        assertThat(result.outcome()).isEqualTo(Outcome.APPLIED);
        var group = read(cluster).getSpec().getWorkerGroupSpecs().get(0);
        assertThat(group.getScaleStrategy().getWorkersToDelete()).containsExactly(idlePod(cluster));
        assertThat(group.getReplicas()).isEqualTo(2);
    }

    /** A cluster of three pods; the first, {@link #idlePod}, runs an idle Ray node. */
    private RayCluster threePodsOneIdle(String prefix) {
        RayCluster cluster = create(unique(prefix), 3);
        pods(cluster, idlePod(cluster), cluster.getMetadata().getName() + "-b", cluster.getMetadata().getName() + "-c");
        gcs.serve(nodes(idlePod(cluster)));
        return cluster;
    }

    private static String idlePod(RayCluster cluster) {
        return cluster.getMetadata().getName() + "-idle-a";
    }

    /** The API, with {@code meanwhile} run right before the pods are read again after the drains. */
    private ClusterApi beforeThePodsAreReadAgain(Runnable meanwhile) {
        return new ClusterApi(serviceClient, config(), metrics()) {
            @Override
            Map<String, ObservedCluster.ObservedPod> pods(String namespace, String name) {
                meanwhile.run();
                return super.pods(namespace, name);
            }
        };
    }

    /** A decision that expires while its drains run is not applied; only the pods Ray drained are still removed. */
    @Test
    void aDecisionThatExpiresDuringItsDrainsOnlyFinishesTheRemovals() {
        RayCluster cluster = create(unique("slow"), 2);
        String a = cluster.getMetadata().getName() + "-idle-a";
        pods(cluster, a, cluster.getMetadata().getName() + "-other");
        gcs.serve(nodes(a));
        gcs.answerDrains(request -> {
            try {
                // Slower than the decision's time to live, within the GCS call's deadline (1 s in tests).
                Thread.sleep(800);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return DrainNodeReply.newBuilder().setIsAccepted(true).build();
        });
        ScaleDecision decision = Decisions.scale(cluster, 15, 2, 4, List.of(Decisions.idle(a)), Instant.now().plusMillis(500));

        ActuationResult result = actuation.apply(decision);
        assertThat(result.outcome()).isEqualTo(Outcome.APPLIED);
        assertThat(result.reason()).contains("expired", "only the drained pods were removed");
        var group = read(cluster).getSpec().getWorkerGroupSpecs().get(0);
        assertThat(group.getReplicas()).as("2 less the drained pod, not the decision's 4").isEqualTo(1);
        assertThat(group.getScaleStrategy().getWorkersToDelete()).containsExactly(a);
    }

    /** Infeasible demand and pods that cannot be created reach the GCS even when nothing is patched (fact C44). */
    @Test
    void reportsInfeasibleDemandAndFailedLaunchesWithoutAChange() {
        RayCluster cluster = create(unique("report"), 1);
        ScaleDecision unchanged = Decisions.scale(cluster, 16, 1, 1, List.of());
        ScaleDecision decision = new ScaleDecision(unchanged.schemaVersion(), unchanged.id(), unchanged.cluster(), unchanged.snapshotId(),
                unchanged.snapshotSequence(), unchanged.resourceVersion(), unchanged.decidedAt(), unchanged.expiresAt(), unchanged.groups(),
                List.of(InfeasibleDemand.task(Resources.of("GPU", "1"), 2,
                        InfeasibleReason.NO_GROUP_FITS, "no group has GPU")),
                List.of(new PendingLaunch("small-group", 0, 0, 2, "exceeded quota")), List.of(), unchanged.mode(),
                List.of("test"), List.of(), unchanged.planner());

        send(decision);

        assertThat(awaitResult(decision).outcome()).isEqualTo(Outcome.NOOP);
        assertThat(awaitResult(decision).cause()).isEqualTo(ActuationCause.ALREADY_MATCHES);
        await().atMost(WITHIN).until(() -> gcs.heldReport() != null && gcs.heldReport().getAutoscalerStateVersion() == 16);
        assertThat(gcs.heldReport().getInfeasibleResourceRequestsList()).singleElement()
                .satisfies(request -> assertThat(request.getResourcesBundleMap()).containsEntry("GPU", 1.0));
        assertThat(gcs.heldReport().getFailedInstanceRequestsList()).singleElement().satisfies(failed -> {
            assertThat(failed.getRayNodeTypeName()).isEqualTo("small-group");
            assertThat(failed.getCount()).isEqualTo(2);
            assertThat(failed.getReason()).isEqualTo("exceeded quota");
        });
    }

    @Test
    void theSameDecisionTwiceIsAppliedOnceEvenAfterARestart() {
        RayCluster cluster = create(unique("twice"), 0);
        ScaleDecision decision = Decisions.scale(cluster, 12, 0, 4, List.of());

        send(decision);
        awaitResult(decision);
        String afterFirst = read(cluster).getMetadata().getResourceVersion();
        send(decision);

        await().atMost(WITHIN).until(() -> resultsFor(decision).size() == 2);
        assertThat(resultsFor(decision)).extracting(ActuationResult::outcome, ActuationResult::cause)
                .containsExactly(tuple(Outcome.APPLIED, ActuationCause.PATCHED), tuple(Outcome.NOOP, ActuationCause.ALREADY_APPLIED));
        assertThat(read(cluster).getMetadata().getResourceVersion()).as("no second write").isEqualTo(afterFirst);

        // A new actuator process has no memory but the RayCluster's annotations: it still applies nothing.
        ActuationService restarted = serviceOver(new ClusterApi(serviceClient, config(), metrics()));
        assertThat(restarted.apply(decision).outcome()).isEqualTo(Outcome.NOOP);
        assertThat(read(cluster).getMetadata().getResourceVersion()).isEqualTo(afterFirst);
    }

    @Test
    void expiredAndOutOfOrderDecisionsAreStaleAndWriteNothing() {
        RayCluster cluster = create(unique("stale"), 0);
        ScaleDecision expired = Decisions.scale(cluster, 20, 0, 3, List.of(), Instant.now().minusSeconds(1));
        send(expired);
        assertThat(awaitResult(expired).outcome()).isEqualTo(Outcome.STALE);
        assertThat(awaitResult(expired).reason()).startsWith("expired at");
        assertThat(awaitResult(expired).cause()).isEqualTo(ActuationCause.EXPIRED);

        ScaleDecision newer = Decisions.scale(cluster, 30, 0, 5, List.of());
        send(newer);
        assertThat(awaitResult(newer).outcome()).isEqualTo(Outcome.APPLIED);
        String afterNewer = read(cluster).getMetadata().getResourceVersion();

        ScaleDecision older = Decisions.scale(read(cluster), 25, 5, 2, List.of());
        send(older);
        assertThat(awaitResult(older).outcome()).isEqualTo(Outcome.STALE);
        assertThat(awaitResult(older).reason()).contains("newer snapshot (30");
        assertThat(awaitResult(older).cause()).isEqualTo(ActuationCause.SUPERSEDED);
        assertThat(read(cluster).getMetadata().getResourceVersion()).isEqualTo(afterNewer);
        assertThat(read(cluster).getSpec().getWorkerGroupSpecs().get(0).getReplicas()).isEqualTo(5);
    }

    @Test
    void aDecisionBasedOnChangedValuesIsStale() {
        RayCluster cluster = create(unique("moved"), 2);
        ScaleDecision decision = Decisions.scale(cluster, 40, 2, 6, List.of());
        kubernetes.resources(RayCluster.class).inNamespace("default").withName(cluster.getMetadata().getName()).edit(c -> {
            c.getSpec().getWorkerGroupSpecs().get(0).setReplicas(3);
            return c;
        });

        send(decision);

        ActuationResult result = awaitResult(decision);
        assertThat(result.outcome()).isEqualTo(Outcome.STALE);
        assertThat(result.reason()).contains("has replicas 3 now; the decision assumed 2");
        assertThat(result.cause()).isEqualTo(ActuationCause.CLUSTER_CHANGED);
        assertThat(read(cluster).getSpec().getWorkerGroupSpecs().get(0).getReplicas()).isEqualTo(3);
    }

    /** Fact D49's other half: a cluster that turned Ray's own autoscaler on has two autoscalers; Rayscale stands back. */
    @Test
    void aClusterThatTurnedItsInTreeAutoscalerOnIsNotWritten() {
        RayCluster cluster = create(unique("intree"), 2);
        ScaleDecision decision = Decisions.scale(cluster, 45, 2, 6, List.of());
        kubernetes.resources(RayCluster.class).inNamespace("default").withName(cluster.getMetadata().getName()).edit(c -> {
            c.getSpec().setEnableInTreeAutoscaling(true);
            return c;
        });

        send(decision);

        ActuationResult result = awaitResult(decision);
        assertThat(result.outcome()).isEqualTo(Outcome.REJECTED);
        assertThat(result.cause()).isEqualTo(ActuationCause.IN_TREE_AUTOSCALING);
        assertThat(result.reason()).contains("enableInTreeAutoscaling is true");
        assertThat(read(cluster).getSpec().getWorkerGroupSpecs().get(0).getReplicas()).isEqualTo(2);
        assertThat(read(cluster).getMetadata().getAnnotations()).doesNotContainKey(AppliedMark.DECISION);
    }

    /**
     * What changes between the read and the write is tested by the write: here Ray's in-tree autoscaler is turned on, or
     * the opt-in removed, while the drains run. The patch tests the spec's generation and the opt-in, so it fails; the pod
     * Ray drained is then not removed either, as the cluster is no longer Rayscale's to write.
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"in-tree autoscaling turned on", "opted out"})
    void aClusterChangedWhileItsDrainsRanIsNotWritten(String change) {
        RayCluster cluster = create(unique("turned"), 3);
        String a = cluster.getMetadata().getName() + "-idle-a";
        pods(cluster, a, cluster.getMetadata().getName() + "-b", cluster.getMetadata().getName() + "-c");
        gcs.serve(nodes(a));
        ScaleDecision decision = Decisions.scale(cluster, 47, 3, 2, List.of(Decisions.idle(a)));
        ClusterApi changing = changedBeforeEachPatch(c -> {
            if (change.startsWith("in-tree")) {
                c.getSpec().setEnableInTreeAutoscaling(true);
            } else {
                c.getMetadata().getAnnotations().remove(Annotations.AUTOSCALING);
            }
        });

        ActuationResult result = serviceOver(changing).apply(decision);

        assertThat(result.cause()).as(result.reason()).isEqualTo(ActuationCause.CONCURRENT_CHANGE);
        assertThat(result.reason()).contains(change.startsWith("in-tree") ? "enableInTreeAutoscaling is true now" : "no longer opts in")
                .contains("drained and not removed: [" + a + "]");
        RayCluster now = read(cluster);
        assertThat(now.getSpec().getWorkerGroupSpecs().get(0).getReplicas()).isEqualTo(3);
        assertThat(now.getMetadata().getAnnotations()).doesNotContainKey(AppliedMark.DECISION);
    }

    /**
     * An API whose RayCluster someone changes just before each patch, answering a patch whose test ops fail as a real API
     * server does (422; the mock server of these tests would not answer it at all).
     */
    private ClusterApi changedBeforeEachPatch(Consumer<RayCluster> change) {
        return new ClusterApi(serviceClient, config(), metrics()) {
            @Override
            public PatchOutcome patch(String namespace, String name, String jsonPatch) {
                RayCluster changed = kubernetes.resources(RayCluster.class).inNamespace(namespace).withName(name).edit(c -> {
                    change.accept(c);
                    return c;
                });
                try {
                    KubernetesSerialization json = kubernetes.getKubernetesSerialization();
                    JsonPatch.apply(json.unmarshal(jsonPatch, JsonNode.class), json.convertValue(changed, JsonNode.class));
                } catch (JsonPatchException failed) {
                    return new PatchOutcome.Conflict("HTTP 422: " + failed.getMessage());
                }
                return super.patch(namespace, name, jsonPatch);
            }
        };
    }

    /**
     * A GitOps tool re-applies its manifest's replicas after each of Rayscale's writes (the API server names it in
     * managedFields, and the list is atomic: it owns workerGroupSpecs whole). Rayscale says who it is and what it changed,
     * writes a bounded number of times, then holds: decisions are REJECTED, nothing is written, not even unread.
     */
    @Test
    void anotherWriterThatKeepsChangingReplicasIsNamedAndNotFought() {
        RayCluster cluster = create(unique("gitops"), 2);
        ActuationService service = serviceOver(new ClusterApi(serviceClient, config(), metrics()));
        assertThat(service.apply(Decisions.scale(cluster, 10, 2, 5, List.of())).outcome()).isEqualTo(Outcome.APPLIED);
        int rayscaleWrites = 0;
        ActuationResult result = null;
        for (long sequence = 11; sequence < 20; sequence++) {
            reapplyManifest(cluster, 2, sequence);
            result = service.apply(Decisions.scale(read(cluster), sequence, 2, 5, List.of()));
            if (result.outcome() != Outcome.APPLIED) {
                break;
            }
            rayscaleWrites++;
        }

        assertThat(rayscaleWrites).as("Rayscale's writes once another writer changed what it wrote").isEqualTo(3);
        assertThat(result.outcome()).isEqualTo(Outcome.REJECTED);
        assertThat(result.cause()).isEqualTo(ActuationCause.OTHER_WRITER);
        assertThat(result.reason()).contains("argocd-controller changed small-group replicas 5 -> 2");
        assertThat(read(cluster).getSpec().getWorkerGroupSpecs().get(0).getReplicas()).as("the other writer's value stands").isEqualTo(2);
        ActuationResult whileHeld = service.apply(Decisions.scale(read(cluster), 30, 2, 6, List.of()));
        assertThat(whileHeld.cause()).isEqualTo(ActuationCause.OTHER_WRITER);
        assertThat(whileHeld.resourceVersionBefore()).as("not even read").isNull();
        assertThat(eventsSent(cluster)).filteredOn(e -> "ReplicasChangedByAnotherWriter".equals(e.getReason()))
                .hasSize(4).allSatisfy(e -> assertThat(e.getType()).isEqualTo("Warning"))
                .anySatisfy(e -> assertThat(e.getMessage()).contains("argocd-controller changed small-group replicas 5 -> 2",
                        "Rayscale writes at most 3 more time(s)", "docs/other-writers.md"))
                .anySatisfy(e -> assertThat(e.getMessage()).contains("Rayscale writes nothing to this cluster until"));
    }

    /** What an Argo CD sync does to a RayCluster whose manifest says {@code replicas}: the list replaced, its owner recorded. */
    private void reapplyManifest(RayCluster cluster, int replicas, long second) {
        kubernetes.resources(RayCluster.class).inNamespace("default").withName(cluster.getMetadata().getName()).edit(c -> {
            c.getSpec().getWorkerGroupSpecs().get(0).setReplicas(replicas);
            c.getSpec().getWorkerGroupSpecs().get(0).setScaleStrategy(null);
            FieldsV1 fields = new FieldsV1();
            fields.setAdditionalProperty("f:spec", Map.of("f:workerGroupSpecs", Map.of()));
            c.getMetadata().setManagedFields(List.of(new ManagedFieldsEntryBuilder().withManager("argocd-controller")
                    .withOperation("Update").withApiVersion("ray.io/v1").withFieldsType("FieldsV1").withFieldsV1(fields)
                    .withTime(String.format("2026-12-04T12:00:%02dZ", second % 60)).build()));
            return c;
        });
    }

    /**
     * KubeRay's RayService controller rebuilds its active cluster's spec from rayClusterConfig (fact D51, modifyRayCluster):
     * each replicas Rayscale writes to the cluster goes into the RayService too, so a rebuild keeps the pods. Not through a
     * cluster the RayService does not name as its active one (a pending cluster of an upgrade).
     */
    @ParameterizedTest(name = "the RayService's active cluster: {0}")
    @ValueSource(booleans = {true, false})
    void theRayServiceOfItsActiveClusterGetsTheSameReplicas(boolean active) {
        String name = unique("served");
        GenericKubernetesResource service = new GenericKubernetesResource();
        service.setApiVersion("ray.io/v1");
        service.setKind("RayService");
        service.setMetadata(new ObjectMetaBuilder().withName(name + "-svc").withNamespace("default").build());
        service.setAdditionalProperty("spec", Map.of("rayClusterConfig", Map.of("workerGroupSpecs",
                List.of(Map.of("groupName", "small-group", "replicas", 1, "minReplicas", 0, "maxReplicas", 20)))));
        service.setAdditionalProperty("status", Map.of("activeServiceStatus", Map.of("rayClusterName", active ? name : name + "-old")));
        GenericKubernetesResource created = kubernetes.genericKubernetesResources(ClusterApi.RAY_SERVICES).inNamespace("default")
                .resource(service).create();
        RayCluster typed = RayClusters.walkthrough("default", name);
        typed.getMetadata().setOwnerReferences(List.of(new OwnerReferenceBuilder().withApiVersion("ray.io/v1").withKind("RayService")
                .withName(name + "-svc").withUid(created.getMetadata().getUid()).withController(true).build()));
        RayCluster cluster = createCluster(typed, 1);

        ActuationResult result = serviceOver(new ClusterApi(serviceClient, config(), metrics())).apply(Decisions.scale(cluster, 10, 1, 5, List.of()));

        assertThat(result.outcome()).isEqualTo(Outcome.APPLIED);
        Object replicas = ((List<?>) ((Map<?, ?>) ((Map<?, ?>) kubernetes.genericKubernetesResources(ClusterApi.RAY_SERVICES).inNamespace("default")
                .withName(name + "-svc").get().getAdditionalProperties().get("spec")).get("rayClusterConfig")).get("workerGroupSpecs"))
                .stream().map(group -> ((Map<?, ?>) group).get("replicas")).findFirst().orElseThrow();
        assertThat(replicas).isEqualTo(active ? 5 : 1);
    }

    @Test
    void aConcurrentEditMakesTheCompareAndSetFail() {
        RayCluster cluster = create(unique("raced"), 1);
        // The edit lands between our read and our patch; a real API server then answers the failed test op with 422.
        server.expect().patch().withPath(patchPath(cluster))
                .andReturn(422, "{\"kind\":\"Status\",\"status\":\"Failure\",\"reason\":\"Invalid\",\"code\":422,"
                        + "\"message\":\"the server rejected our request due to an error in our request\"}")
                .once();
        ScaleDecision decision = Decisions.scale(cluster, 50, 1, 4, List.of());

        send(decision);

        ActuationResult result = awaitResult(decision);
        assertThat(result.outcome()).isEqualTo(Outcome.CONFLICT);
        assertThat(result.cause()).isEqualTo(ActuationCause.CONCURRENT_CHANGE);
        assertThat(result.attempts()).as("no blind retry").isEqualTo(1);
        assertThat(read(cluster).getSpec().getWorkerGroupSpecs().get(0).getReplicas()).isEqualTo(1);
    }

    @Test
    void retriesAnApiThatFailsTwiceThenSucceeds() {
        RayCluster cluster = create(unique("flaky"), 0);
        server.expect().patch().withPath(patchPath(cluster)).andReturn(503, "{\"kind\":\"Status\",\"code\":503}").times(2);
        ScaleDecision decision = Decisions.scale(cluster, 60, 0, 2, List.of());

        send(decision);

        ActuationResult result = awaitResult(decision);
        assertThat(result.outcome()).isEqualTo(Outcome.APPLIED);
        assertThat(result.attempts()).isEqualTo(3);
        assertThat(read(cluster).getSpec().getWorkerGroupSpecs().get(0).getReplicas()).isEqualTo(2);
    }

    @Test
    void poisonGoesToTheDeadLetterTopicAndTheNextDecisionIsApplied() {
        RayCluster cluster = create(unique("poison"), 0);
        String poisonKey = "poison/" + unique("p");
        kafka.produce(String.class, byte[].class).fromRecords(
                new ProducerRecord<>(Topics.DECISIONS, poisonKey, "{\"schemaVersion\":1,\"id\":\"x\"}".getBytes(StandardCharsets.UTF_8)))
                .awaitCompletion(WITHIN);
        ScaleDecision decision = Decisions.scale(cluster, 70, 0, 1, List.of());

        send(decision);

        assertThat(awaitResult(decision).outcome()).isEqualTo(Outcome.APPLIED);
        // Only this test's letter: a broker that outlives the test run holds the letters of earlier runs too.
        ConsumerRecord<String, byte[]> dead = kafka.consume(String.class, byte[].class)
                .fromTopics(Topics.deadLetter("k8s-actuator"), letters -> letters.select().where(r -> poisonKey.equals(r.key())))
                .awaitRecords(1, WITHIN).getRecords().get(0);
        assertThat(CloudEventHeaders.read(dead.headers(), "dead-letter-reason")).startsWith("invalid ScaleDecision: $.cluster");
    }

    /** Whoever can write to the decisions topic could resize clusters: what the planner cannot have made is refused unread. */
    @Test
    void forgedDecisionsAreRefusedAndNeverFreezeTheCluster() {
        RayCluster cluster = create(unique("forged"), 0);
        ScaleDecision farFuture = Decisions.scale(cluster, Long.MAX_VALUE, 0, 5, List.of());
        RayCluster namesake = new KubernetesSerialization().clone(cluster);
        namesake.getMetadata().setUid(null);
        ScaleDecision withoutUid = Decisions.scale(namesake, 2, 0, 6, List.of());
        ScaleDecision honest = Decisions.scale(cluster, 3, 0, 1, List.of());

        send(farFuture);
        send(withoutUid);
        send(honest);

        assertThat(awaitResult(honest).outcome()).isEqualTo(Outcome.APPLIED);
        assertThat(read(cluster).getSpec().getWorkerGroupSpecs().get(0).getReplicas()).isEqualTo(1);
        assertThat(resultsFor(farFuture)).isEmpty();
        assertThat(resultsFor(withoutUid)).isEmpty();
        List<String> reasons = kafka.consume(String.class, byte[].class)
                .fromTopics(Topics.deadLetter("k8s-actuator"), letters -> letters.select().where(r -> honest.cluster().id().equals(r.key())))
                .awaitRecords(2, WITHIN).getRecords().stream().map(r -> CloudEventHeaders.read(r.headers(), "dead-letter-reason")).toList();
        assertThat(reasons).anySatisfy(reason -> assertThat(reason).contains("from snapshot " + Long.MAX_VALUE)
                .contains("beyond the newest the collector can have made"));
        assertThat(reasons).anySatisfy(reason -> assertThat(reason).contains("names no RayCluster uid"));
        given().get("/q/metrics").then().body(containsString("rayscale_actuator_decisions_total{outcome=\"refused\"}"));
    }

    @Test
    void replayingOldDecisionsWritesNothing() {
        RayCluster cluster = create(unique("replay"), 0);
        List<ScaleDecision> history = new ArrayList<>();
        for (int sequence = 1; sequence <= 100; sequence++) {
            history.add(Decisions.scale(cluster, sequence, 0, sequence % 7, List.of(), Instant.now().plusSeconds(600)));
        }
        ScaleDecision latest = Decisions.scale(cluster, 101, 0, 3, List.of());
        send(latest);
        awaitResult(latest);
        String applied = read(cluster).getMetadata().getResourceVersion();

        history.forEach(this::send);

        await().atMost(WITHIN).until(() -> history.stream().allMatch(d -> !resultsFor(d).isEmpty()));
        assertThat(history).allSatisfy(d -> assertThat(resultsFor(d).get(0).outcome()).isEqualTo(Outcome.STALE));
        assertThat(read(cluster).getMetadata().getResourceVersion()).isEqualTo(applied);
        assertThat(eventsSent(cluster)).noneMatch(e -> "StaleDecision".equals(e.getReason()));
    }

    @Test
    void dryRunSaysWhatItWouldDoAndDoesNothing() {
        RayCluster cluster = RayClusters.walkthrough("default", unique("dry"));
        cluster.getMetadata().getAnnotations().put(Observations.DRY_RUN_ANNOTATION, "true");
        cluster = createCluster(cluster, 2);
        String idle = cluster.getMetadata().getName() + "-idle-a";
        pods(cluster, idle, cluster.getMetadata().getName() + "-other");
        gcs.serve(nodes(idle));
        ScaleDecision decision = Decisions.scale(cluster, 80, 2, 1, List.of(Decisions.idle(idle)));

        send(decision);

        ActuationResult result = awaitResult(decision);
        assertThat(result.outcome()).isEqualTo(Outcome.APPLIED);
        assertThat(result.dryRun()).isTrue();
        assertThat(result.reason()).startsWith("dry run, not patched: small-group replicas 2 -> 1");
        assertThat(read(cluster).getSpec().getWorkerGroupSpecs().get(0).getReplicas()).isEqualTo(2);
        assertThat(gcs.drainRequests()).isEmpty();
        RayCluster dry = cluster;
        await().atMost(WITHIN).until(() -> events(dry).stream().anyMatch(e -> e.getMessage().startsWith("(dry run)")));
    }

    @Test
    void exposesHealthAndMetrics() {
        given().get("/q/health/ready").then().statusCode(200).body(containsString("Kafka"));
        given().get("/q/metrics").then().statusCode(200)
                .body(containsString("rayscale_actuator_outcomes_total"))
                .body(containsString("rayscale_actuator_drains_total"))
                .body(containsString("rayscale_actuator_causes_total{cause=\"drains_refused\"}"));
    }

    @Test
    void timesItsRequestsToKubernetesAndItsCallsToTheGcs() {
        RayCluster cluster = threePodsOneIdle("timed");
        ScaleDecision decision = Decisions.scale(cluster, 90, 3, 2, List.of(Decisions.idle(idlePod(cluster))));

        send(decision);

        assertThat(awaitResult(decision).outcome()).isEqualTo(Outcome.APPLIED);
        given().get("/q/metrics").then().statusCode(200)
                .body(containsString("rayscale_actuator_kubernetes_requests_seconds_count{outcome=\"answered\",request=\"raycluster.get\"}"))
                .body(containsString("rayscale_actuator_kubernetes_requests_seconds_bucket{outcome=\"answered\",request=\"pods.list\",le=\"1.0\"}"))
                .body(containsString("rayscale_actuator_kubernetes_requests_seconds_count{outcome=\"answered\",request=\"raycluster.patch\"}"))
                .body(containsString("grpc_client_processing_duration_seconds_count{method=\"DrainNode\""));
    }

    private RayCluster create(String name, int replicas) {
        return createCluster(RayClusters.walkthrough("default", name), replicas);
    }

    private RayCluster createCluster(RayCluster cluster, int replicas) {
        cluster.getMetadata().getAnnotations().put("rayscale.dev/gcs-address", gcs.address());
        cluster.getSpec().getWorkerGroupSpecs().get(0).setReplicas(replicas);
        return kubernetes.resources(RayCluster.class).inNamespace("default").resource(cluster).create();
    }

    private void pods(RayCluster cluster, String... names) {
        for (String name : names) {
            kubernetes.pods().inNamespace("default").resource(RayClusters.workerPod(cluster, "small-group", name, "Running")).create();
        }
    }

    /** A GCS state with an idle Ray node for each pod, its id the pod name's bytes (as {@link Decisions#idle} names it). */
    private static ClusterResourceState nodes(String... pods) {
        GcsStates state = GcsStates.state(1);
        for (String pod : pods) {
            state.node(pod, pod, "small-group", NodeStatus.IDLE, Map.of("CPU", 1.0), Map.of("CPU", 1.0), 120_000);
        }
        return state.build();
    }

    private RayCluster read(RayCluster cluster) {
        return kubernetes.resources(RayCluster.class).inNamespace("default").withName(cluster.getMetadata().getName()).get();
    }

    /** A backlog delivered together: only the newest decision of the cluster is applied; the others are superseded, unread. */
    @Test
    void ofAClustersDecisionsDeliveredTogetherOnlyTheNewestIsApplied() {
        RayCluster cluster = create(unique("backlog"), 0);
        List<ScaleDecision> backlog = List.of(Decisions.scale(cluster, 10, 0, 5, List.of()), Decisions.scale(cluster, 11, 0, 6, List.of()),
                Decisions.scale(cluster, 12, 0, 7, List.of()));
        List<AtomicBoolean> acked = new ArrayList<>();

        consumer.handle(backlog.stream().map(decision -> {
            AtomicBoolean ack = new AtomicBoolean();
            acked.add(ack);
            return record(decision, ack);
        }).toList());

        assertThat(awaitResult(backlog.get(2)).outcome()).isEqualTo(Outcome.APPLIED);
        for (ScaleDecision older : backlog.subList(0, 2)) {
            ActuationResult result = awaitResult(older);
            assertThat(result.outcome()).isEqualTo(Outcome.STALE);
            assertThat(result.reason()).contains("superseded by decision " + backlog.get(2).id());
            assertThat(result.resourceVersionBefore()).as("decided without reading the RayCluster").isNull();
        }
        assertThat(read(cluster).getSpec().getWorkerGroupSpecs().get(0).getReplicas()).isEqualTo(7);
        assertThat(acked).allMatch(AtomicBoolean::get);
    }

    /**
     * Until a cluster's decision lands, the planner decides again on every snapshot: those made before it landed are
     * superseded by it, answered without reading the RayCluster and without a warning; one made after it is read and applied.
     */
    @Test
    void decisionsMadeBeforeTheLastWriteAreSupersededUnread() {
        RayCluster cluster = create(unique("queued"), 0);
        ScaleDecision first = Decisions.scale(cluster, 1, 0, 2, List.of());
        ScaleDecision queued = Decisions.scale(cluster, 2, 0, 2, List.of());

        consumer.handle(List.of(record(first, new AtomicBoolean())));
        // Read once the first has landed: read while the first still waited for a worker, it would take the first's place.
        assertThat(awaitResult(first).cause()).isEqualTo(ActuationCause.PATCHED);
        consumer.handle(List.of(record(queued, new AtomicBoolean())));

        ActuationResult superseded = awaitResult(queued);
        assertThat(superseded.cause()).isEqualTo(ActuationCause.SUPERSEDED);
        assertThat(superseded.reason()).startsWith("superseded by decision " + first.id() + ", applied at ")
                .endsWith("worker group small-group has replicas 2 now; the decision assumed 0");
        assertThat(superseded.resourceVersionBefore()).as("decided without reading the RayCluster").isNull();
        assertThat(eventsSent(cluster)).noneMatch(e -> "StaleDecision".equals(e.getReason()));

        ScaleDecision later = Decisions.scale(cluster, 3, 2, 4, List.of());
        consumer.handle(List.of(record(later, new AtomicBoolean())));
        assertThat(awaitResult(later).cause()).isEqualTo(ActuationCause.PATCHED);
        assertThat(read(cluster).getSpec().getWorkerGroupSpecs().get(0).getReplicas()).isEqualTo(4);
    }

    /**
     * A decision that removes no pod, on a cluster this actuator wrote last, is written without reading the RayCluster:
     * one request, whose test operations hold the spec (its generation) and the annotations to what that write left. When
     * someone changed them since, the API server refuses the patch (422; scripted here, the mock of these tests does not
     * answer failed tests), and the RayCluster is read and the decision judged on it, as any other.
     */
    @Test
    void onAClusterThisActuatorWroteLastADecisionRemovingNoPodIsWrittenWithoutARead() {
        RayCluster cluster = create(unique("unread"), 0);
        assertThat(actuation.apply(Decisions.scale(cluster, 1, 0, 2, List.of())).resourceVersionBefore()).as("the first is read").isNotNull();

        ActuationResult unread = actuation.apply(Decisions.scale(cluster, 2, 2, 5, List.of()));

        assertThat(unread.cause()).isEqualTo(ActuationCause.PATCHED);
        assertThat(unread.resourceVersionBefore()).as("not read").isNull();
        assertThat(unread.reason()).startsWith("unread (spec and annotations as this actuator last wrote them); ");
        assertThat(read(cluster).getSpec().getWorkerGroupSpecs().get(0).getReplicas()).isEqualTo(5);

        kubernetes.resources(RayCluster.class).inNamespace("default").withName(cluster.getMetadata().getName()).edit(c -> {
            c.getSpec().getWorkerGroupSpecs().get(0).setMaxReplicas(6);
            return c;
        });
        server.expect().patch().withPath(patchPath(cluster))
                .andReturn(422, "{\"kind\":\"Status\",\"status\":\"Failure\",\"reason\":\"Invalid\",\"code\":422,"
                        + "\"message\":\"the server rejected our request due to an error in our request\"}")
                .once();

        ActuationResult read = actuation.apply(Decisions.scale(cluster, 3, 5, 8, List.of()));

        assertThat(read.cause()).isEqualTo(ActuationCause.PATCHED);
        assertThat(read.resourceVersionBefore()).as("read after all").isNotNull();
        assertThat(read(cluster).getSpec().getWorkerGroupSpecs().get(0).getReplicas()).as("the new maximum, read").isEqualTo(6);
    }

    /**
     * Different clusters of one batch are applied side by side: the first cluster's GCS never answers, so its decision,
     * which removes a pod, waits out the deadline of the read of the live Ray nodes; the second cluster's decision,
     * behind it in the batch, is applied meanwhile.
     */
    @Test
    void differentClustersOfABatchAreAppliedSideBySide() throws Exception {
        // One decision first, so that the quick cluster's calls are warm: a cold JVM's first calls can take longer on a
        // busy machine than the stuck cluster's 1 s deadline, and this test is about the two running side by side.
        RayCluster warm = create(unique("warm"), 0);
        ScaleDecision warming = Decisions.scale(warm, 1, 0, 1, List.of());
        consumer.handle(List.of(record(warming, new AtomicBoolean())));
        awaitResult(warming);
        try (ServerSocket silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            RayCluster stuck = kubernetes.resources(RayCluster.class).inNamespace("default").resource(withGcs(
                    RayClusters.walkthrough("default", unique("stuck")), "127.0.0.1:" + silent.getLocalPort(), 1)).create();
            String idle = stuck.getMetadata().getName() + "-idle-a";
            pods(stuck, idle);
            RayCluster quick = create(unique("quick"), 0);
            ScaleDecision first = Decisions.scale(stuck, 1, 1, 0, List.of(Decisions.idle(idle)));
            ScaleDecision second = Decisions.scale(quick, 1, 0, 3, List.of());

            consumer.handle(List.of(record(first, new AtomicBoolean()), record(second, new AtomicBoolean())));

            ActuationResult stuckResult = awaitResult(first);
            ActuationResult quickResult = awaitResult(second);
            assertThat(stuckResult.groups()).singleElement().satisfies(group -> assertThat(group.drainRejected()).singleElement()
                    .satisfies(rejection -> assertThat(rejection.reason()).contains("the GCS could not be read").contains("not deleted")));
            assertThat(quickResult.outcome()).isEqualTo(Outcome.APPLIED);
            assertThat(quickResult.completedAt()).as("applied while the first cluster's GCS calls waited").isBefore(stuckResult.completedAt());
        }
    }

    /**
     * The report to the GCS is sent off the decision's path: while the GCS has not answered it, the decision is already
     * applied and its result made; the report follows.
     */
    @Test
    void theResultDoesNotWaitForTheGcsReport() throws Exception {
        HeldGcs gcs = new HeldGcs();
        ClusterReports slowReports = gcs.reports();
        ActuationService service = new ActuationService(new ClusterApi(serviceClient, config(), metrics()), gcs, slowReports, config(),
                metrics());
        RayCluster cluster = create(unique("slow-gcs"), 0);
        ScaleDecision decision = Decisions.scale(cluster, 1, 0, 2, List.of());

        ActuationResult result = service.apply(decision);

        assertThat(result.outcome()).isEqualTo(Outcome.APPLIED);
        assertThat(read(cluster).getSpec().getWorkerGroupSpecs().get(0).getReplicas()).isEqualTo(2);
        assertThat(slowReports.idle()).as("the GCS report is still waiting").isFalse();
        gcs.answer();
        await().atMost(WITHIN).until(slowReports::idle);
        assertThat(gcs.reported).containsExactly(decision);
    }

    /** Of a cluster's GCS reports not yet sent, only the newest decision's goes: the GCS keeps only the newest anyway. */
    @Test
    void unsentGcsReportsOfAClusterCoalesceToTheNewest() throws InterruptedException {
        HeldGcs gcs = new HeldGcs();
        ClusterReports slowReports = gcs.reports();
        RayCluster busy = create(unique("busy-gcs"), 0);
        RayCluster other = create(unique("other-gcs"), 0);
        slowReports.gcs(busy, Decisions.scale(busy, 1, 0, 1, List.of()));
        slowReports.gcs(other, Decisions.scale(other, 1, 0, 1, List.of()));
        assertThat(gcs.waiting(2)).isTrue();
        // Both senders now wait on the GCS: what follows queues behind them.
        slowReports.gcs(busy, Decisions.scale(busy, 3, 0, 3, List.of()));
        slowReports.gcs(busy, Decisions.scale(busy, 2, 0, 2, List.of()));
        slowReports.gcs(busy, Decisions.scale(busy, 4, 0, 4, List.of()));

        gcs.answer();

        await().atMost(WITHIN).until(slowReports::idle);
        assertThat(gcs.reported).extracting(ScaleDecision::snapshotSequence).containsExactlyInAnyOrder(1L, 1L, 4L);
    }

    /** A GCS whose reports wait until {@link #answer} is called; it records the decisions reported, in order. */
    private final class HeldGcs extends RayGcs {

        final List<ScaleDecision> reported = new CopyOnWriteArrayList<>();
        private final Semaphore entered = new Semaphore(0);
        private final CountDownLatch answers = new CountDownLatch(1);

        HeldGcs() {
            super(serviceClient, config(), metrics());
        }

        /** Reports through this GCS, as the service's reports would. */
        ClusterReports reports() {
            return new ClusterReports(kubernetes, this, config(), metrics());
        }

        @Override
        void report(RayCluster cluster, ScaleDecision decision) {
            entered.release();
            try {
                answers.await();
            } catch (InterruptedException interrupted) {
                Thread.currentThread().interrupt();
            }
            reported.add(decision);
        }

        /** Whether {@code senders} reports are waiting for an answer, within the test's patience. */
        boolean waiting(int senders) throws InterruptedException {
            return entered.tryAcquire(senders, WITHIN.toSeconds(), TimeUnit.SECONDS);
        }

        void answer() {
            answers.countDown();
        }
    }

    private static RayCluster withGcs(RayCluster cluster, String address, int replicas) {
        cluster.getMetadata().getAnnotations().put("rayscale.dev/gcs-address", address);
        cluster.getSpec().getWorkerGroupSpecs().get(0).setReplicas(replicas);
        return cluster;
    }

    /** A decision as the channel delivers it: its record's key, headers and value, acknowledged into {@code acked}. */
    private static Message<byte[]> record(ScaleDecision decision, AtomicBoolean acked) {
        RecordHeaders headers = new RecordHeaders();
        byte[] value;
        try (DecisionSerializer serializer = new DecisionSerializer()) {
            value = serializer.serialize(Topics.DECISIONS, headers, decision);
        }
        var origin = new IncomingKafkaRecordMetadata<>(new ConsumerRecord<>(Topics.DECISIONS, 0,
                decision.snapshotSequence(), 0L, TimestampType.CREATE_TIME, 0, value.length,
                decision.cluster().id(), value, headers, Optional.empty()), "decisions");
        return Message.of(value, Metadata.of(origin))
                .withAck(() -> {
                    acked.set(true);
                    return CompletableFuture.completedFuture(null);
                });
    }

    private void send(ScaleDecision decision) {
        RecordHeaders headers = new RecordHeaders();
        byte[] value;
        try (DecisionSerializer serializer = new DecisionSerializer()) {
            value = serializer.serialize(Topics.DECISIONS, headers, decision);
        }
        kafka.produce(String.class, byte[].class)
                .fromRecords(new ProducerRecord<>(Topics.DECISIONS, null, decision.cluster().id(), value, headers))
                .awaitCompletion(WITHIN);
    }

    private ActuationResult awaitResult(ScaleDecision decision) {
        await().atMost(WITHIN).until(() -> !resultsFor(decision).isEmpty());
        return resultsFor(decision).get(0);
    }

    private List<ActuationResult> resultsFor(ScaleDecision decision) {
        // Only this cluster's records are decoded: the shared broker's topic holds other tests' records, which are not ours to judge.
        return results.getRecords().stream().filter(r -> decision.cluster().id().equals(r.key()))
                .map(r -> EventCodec.ACTUATIONS.decode(r.value())).filter(r -> r.decisionId().equals(decision.id())).toList();
    }

    private List<Event> events(RayCluster cluster) {
        return kubernetes.v1().events().inNamespace("default").list().getItems().stream()
                .filter(e -> cluster.getMetadata().getName().equals(e.getInvolvedObject().getName())).toList();
    }

    private static String path(RayCluster cluster) {
        return "/apis/ray.io/v1/namespaces/default/rayclusters/" + cluster.getMetadata().getName();
    }

    /** Rayscale's patches name their field manager. */
    private static String patchPath(RayCluster cluster) {
        return path(cluster) + "?fieldManager=" + ClusterApi.FIELD_MANAGER;
    }

    /** An actuation service of its own over {@code api}, as a new process would have, reporting through the service's reports. */
    private ActuationService serviceOver(ClusterApi api) {
        return new ActuationService(api, new RayGcs(serviceClient, config(), metrics()), reports, config(),
                metrics());
    }

    /** The cluster's Events once every report handed over so far has been sent. */
    private List<Event> eventsSent(RayCluster cluster) {
        await().atMost(WITHIN).until(reports::idle);
        return events(cluster);
    }

    private static ActuatorMetrics metrics() {
        return new ActuatorMetrics(new SimpleMeterRegistry());
    }

    private static ActuatorConfig config() {
        return SmallRyeConfigProviderResolver.instance().getConfig()
                .unwrap(SmallRyeConfig.class).getConfigMapping(ActuatorConfig.class);
    }

    private static String unique(String name) {
        return name + "-" + Long.toHexString(System.nanoTime()).substring(6);
    }

    /** Run after the others: a grant that none of the service's calls needed is one too many. */
    @Test
    @Order(Integer.MAX_VALUE)
    void everyGrantTheChartGivesIsUsed() {
        assertThat(CALLS.unused()).as("grants no call needed").isEmpty();
    }
}
