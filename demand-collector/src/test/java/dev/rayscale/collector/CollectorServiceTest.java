package dev.rayscale.collector;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.matchesPattern;
import static org.hamcrest.Matchers.not;

import dev.rayscale.events.Annotations;
import dev.rayscale.events.CloudEventHeaders;
import dev.rayscale.events.ClusterSnapshot;
import dev.rayscale.events.ClusterVersions;
import dev.rayscale.events.Demand;
import dev.rayscale.events.GangDemand;
import dev.rayscale.events.GcsSource;
import dev.rayscale.events.HeadGroup;
import dev.rayscale.events.KubeRayGeneration;
import dev.rayscale.events.KubernetesSource;
import dev.rayscale.events.NodeStatus;
import dev.rayscale.events.PlacementStrategy;
import dev.rayscale.events.PodState;
import dev.rayscale.events.RayNode;
import dev.rayscale.events.ResourceConstraint;
import dev.rayscale.events.Resources;
import dev.rayscale.events.ScalingPolicy;
import dev.rayscale.events.ShapeCount;
import dev.rayscale.events.SourceHealth;
import dev.rayscale.events.SourceStatus;
import dev.rayscale.events.Support;
import dev.rayscale.events.TaskDemand;
import dev.rayscale.events.Topics;
import dev.rayscale.events.UpscalingMode;
import dev.rayscale.events.VersionSource;
import dev.rayscale.events.WorkerGroup;
import dev.rayscale.events.codec.EventCodec;
import dev.rayscale.gcs.RayKv;
import dev.rayscale.sim.FakeGcs;
import dev.rayscale.sim.GcsStates;
import dev.rayscale.sim.RayRelease;
import dev.rayscale.testsupport.KubernetesCalls;
import dev.rayscale.testsupport.KafkaBrokerResource;
import dev.rayscale.testsupport.RayClusterCrd;
import dev.rayscale.testsupport.RayClusters;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.grpc.Status;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.kubernetes.client.KubernetesServer;
import io.quarkus.test.kubernetes.client.KubernetesTestServer;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.kafka.InjectKafkaCompanion;
import io.quarkus.test.kubernetes.client.WithKubernetesTestServer;
import io.ray.v1.RayCluster;
import io.ray.v1.RayClusterStatus;
import io.ray.v1.rayclusterspec.AuthOptions;
import io.ray.v1.rayclusterstatus.Conditions;
import io.smallrye.reactive.messaging.kafka.companion.ConsumerTask;
import io.smallrye.reactive.messaging.kafka.companion.KafkaCompanion;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.Collections;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Test;

/**
 * The collector with real parts: the fabric8 mock API server (CRUD, KubeRay's CRD registered), a
 * real Kafka broker, and a fake GCS speaking Ray's gRPC protocol.
 */
@QuarkusTest
@WithTestResource(KafkaBrokerResource.class)
@WithKubernetesTestServer(crud = true, setup = RayClusterCrd.class)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class CollectorServiceTest {

    private static final Duration WITHIN = Duration.ofSeconds(20);
    private static final Map<String, Double> ONE_CPU = Map.of("CPU", 1.0);

    @InjectKafkaCompanion
    KafkaCompanion kafka;

    @KubernetesTestServer
    KubernetesServer server;

    /** What the service calls in the API server, held to the grants deploy/README.md documents ({@link KubernetesCalls}). */
    private static final KubernetesCalls.Ledger CALLS = new KubernetesCalls.Ledger("demand-collector");

    /** The service's client; the test makes its own requests with {@link #kubernetes}, told apart from the service's. */
    @Inject
    KubernetesClient serviceClient;

    KubernetesClient kubernetes;

    @Inject
    ClusterPoller poller;

    private static final Set<String> OURS = ConcurrentHashMap.newKeySet();

    private FakeGcs gcs;
    private ConsumerTask<String, byte[]> snapshots;

    @BeforeEach
    void start() {
        kubernetes = KubernetesCalls.setupClient(serviceClient);
        gcs = FakeGcs.start();
        // Only this class's clusters: a broker that outlives a test run holds earlier runs' snapshots (big ones too).
        snapshots = kafka.consume(String.class, byte[].class).fromTopics(Topics.SNAPSHOTS,
                records -> records.select().where(record -> OURS.contains(record.key())));
    }

    @AfterEach
    void stop() throws InterruptedException {
        assertThat(CALLS.ungranted(server.getKubernetesMockServer())).as("API calls the chart does not grant").isEmpty();
        kubernetes.close();
        snapshots.close();
        gcs.close();
    }

    @Test
    void publishesTheExactWalkthroughSnapshot() {
        gcs.serve(GcsStates.state(118)
                .node("head", "wt-head", "headgroup", dev.rayscale.gcs.proto.NodeStatus.RUNNING,
                        Map.of("memory", 2147483648.0), Map.of("memory", 2147483648.0), 0)
                .tasks(ONE_CPU, 15).build());
        RayCluster cluster = create(RayClusters.walkthrough("default", unique("walkthrough")));
        kubernetes.pods().inNamespace("default").resource(RayClusters.headPod(cluster, "wt-head")).create();

        ConsumerRecord<String, byte[]> record = awaitRecord(cluster, s -> s.hasRayState() && !s.nodes().get(0).podState().equals(PodState.GONE));
        ClusterSnapshot snapshot = EventCodec.SNAPSHOTS.decode(record.value());
        long version = snapshot.sources().gcs().stateVersion();
        assertThat(version).as("the GCS's own counter, bumped by each read (fact A1.2)").isBetween(1L, (long) gcs.reads());

        RayCluster stored = kubernetes.resources(RayCluster.class).inNamespace("default").withName(cluster.getMetadata().getName()).get();
        ClusterSnapshot expected = new ClusterSnapshot(1, snapshot.id(), snapshot.cluster(), snapshot.sequence(), snapshot.observedAt(),
                new SourceHealth(GcsSource.ok(version, "session_test"),
                        KubernetesSource.ok(snapshot.sources().kubernetes().resourceVersion(),
                                stored.getMetadata().getGeneration() == null ? 0 : stored.getMetadata().getGeneration())),
                ScalingPolicy.defaults(),
                new HeadGroup("headgroup", Resources.of("memory", "2147483648"), Map.of("ray.io/node-group", "headgroup")),
                List.of(new WorkerGroup("small-group", 0, 0, 0, 20, 1, Resources.of("CPU", "1", "memory", "1073741824"),
                        Map.of("ray.io/node-group", "small-group"),
                        List.of(), null, false)),
                List.of(new RayNode(hex("head"), "wt-head", null, "headgroup", NodeStatus.RUNNING, Resources.of("memory", "2147483648"),
                        Resources.of("memory", "2147483648"), 0, Map.of(), "10.0.0.1", List.of(), PodState.PRESENT)),
                List.of(),
                new Demand(List.of(new TaskDemand(Resources.of("CPU", "1"), 15)), List.of(), List.of()),
                new ClusterVersions(RayRelease.CURRENT, VersionSource.GCS, KubeRayGeneration.FROM_1_6, Support.FULL, List.of()));
        assertThat(snapshot).isEqualTo(expected);
        assertThat(snapshot.cluster().uid()).isEqualTo(stored.getMetadata().getUid());
        assertThat(record.key()).isEqualTo(cluster.getMetadata().getNamespace() + "/" + cluster.getMetadata().getName());
        assertThat(CloudEventHeaders.read(record.headers(), CloudEventHeaders.TYPE)).isEqualTo("dev.rayscale.snapshot.v1");
        assertThat(CloudEventHeaders.read(record.headers(), CloudEventHeaders.SOURCE)).isEqualTo("//rayscale.dev/demand-collector");
    }

    /**
     * Fact A1.1: a GCS exits when a read's last_seen version is above its own counter, which restarts at
     * 0 with the GCS (A1.3). Ray's own client always sends 0 (A1.4); a collector that remembered the
     * version from before a restart would crash the new GCS.
     */
    @Test
    void neverCrashesARestartedGcs() {
        gcs.serve(GcsStates.state(1).tasks(ONE_CPU, 2).build());
        RayCluster cluster = create(RayClusters.walkthrough("default", unique("restarted")));
        await().atMost(WITHIN).until(() -> gcs.version() >= 5);

        gcs.restart().serve(GcsStates.state(1).tasks(ONE_CPU, 3).build());

        ClusterSnapshot after = EventCodec.SNAPSHOTS.decode(awaitRecord(cluster,
                s -> s.hasRayState() && s.demand().tasks().get(0).count() == 3).value());
        await().atMost(WITHIN).until(() -> gcs.version() >= 3);
        assertThat(gcs.exits()).as("GCS exits caused by the collector").isZero();
        assertThat(after.sources().gcs().stateVersion()).isLessThan(5);
    }

    /** Fact A1.2: every read bumps the GCS's version, so the version is no sign of change; the content is. */
    @Test
    void publishesWhenTheStateChangesNotOnEveryRead() {
        gcs.serve(GcsStates.state(1).tasks(ONE_CPU, 2).build());
        RayCluster cluster = create(RayClusters.walkthrough("default", unique("steady")));
        awaitRecord(cluster, ClusterSnapshot::hasRayState);
        int readsBefore = gcs.reads();
        int publishedBefore = records(cluster).size();

        await().atMost(WITHIN).until(() -> gcs.reads() >= readsBefore + 10);

        assertThat(records(cluster).size() - publishedBefore).as("ten reads of the same state: heartbeats only (1 s), not ten snapshots")
                .isLessThanOrEqualTo(3);
        gcs.serve(GcsStates.state(1).tasks(ONE_CPU, 4).build());
        awaitRecord(cluster, s -> s.hasRayState() && s.demand().tasks().get(0).count() == 4);
    }

    /** A collector restarted on a host whose clock is behind still numbers its snapshots above the last applied decision. */
    @Test
    void numbersSnapshotsAboveTheLastAppliedDecision() {
        long applied = System.currentTimeMillis() + 3_600_000;
        RayCluster cluster = RayClusters.walkthrough("default", unique("clock"));
        cluster.getMetadata().getAnnotations().put(Annotations.LAST_APPLIED_SEQUENCE, String.valueOf(applied));
        create(cluster);

        assertThat(EventCodec.SNAPSHOTS.decode(awaitRecord(cluster, s -> true).value()).sequence()).isGreaterThan(applied);
    }

    /**
     * Fact A4.19: a node outlives a pod that vanished; B6.28: a terminating pod still counts for the
     * operator; B9.34: the operator's create failures show in the ReplicaFailure condition. The snapshot
     * says all three.
     */
    @Test
    void saysWhatKubernetesSaysOfEachNodesPodAndOfCreateFailures() {
        RayCluster cluster = RayClusters.walkthrough("default", unique("pods"));
        String name = cluster.getMetadata().getName();
        gcs.serve(GcsStates.state(1)
                .node("gone", name + "-small-group-worker-gone1", "small-group", dev.rayscale.gcs.proto.NodeStatus.IDLE, ONE_CPU, ONE_CPU, 5000)
                .node("leaving", name + "-small-group-worker-leav1", "small-group", dev.rayscale.gcs.proto.NodeStatus.IDLE, ONE_CPU, ONE_CPU, 5000)
                .build());
        create(cluster);
        Pod leaving = RayClusters.workerPod(cluster, "small-group", name + "-small-group-worker-leav1", "Running");
        leaving.getMetadata().setFinalizers(List.of("test/hold"));
        kubernetes.pods().inNamespace("default").resource(leaving).create();
        kubernetes.pods().inNamespace("default").withName(leaving.getMetadata().getName()).delete();
        kubernetes.resources(RayCluster.class).inNamespace("default").withName(name).editStatus(c -> {
            Conditions failure = new Conditions();
            failure.setType("ReplicaFailure");
            failure.setStatus(Conditions.Status.TRUE);
            failure.setReason("FailedCreateWorkerPod");
            failure.setMessage("FailedCreateWorkerPod\npods \"" + name + "-small-group-worker-x7k2p\" is forbidden: exceeded quota: q");
            RayClusterStatus status = new RayClusterStatus();
            status.setConditions(List.of(failure));
            c.setStatus(status);
            return c;
        });

        ClusterSnapshot snapshot = EventCodec.SNAPSHOTS.decode(awaitRecord(cluster,
                s -> s.hasRayState() && !s.workerGroups().get(0).terminatingPods().isEmpty() && s.workerGroups().get(0).launchFailure() != null)
                .value());

        assertThat(snapshot.nodes()).extracting(RayNode::podState).containsExactly(PodState.GONE, PodState.TERMINATING);
        assertThat(snapshot.workerGroups().get(0).terminatingPods()).containsExactly(leaving.getMetadata().getName());
        assertThat(snapshot.workerGroups().get(0).launchFailure()).startsWith("pods \"" + name + "-small-group-worker-x7k2p\" is forbidden");
        assertThat(snapshot.pendingPods()).as("a terminating pod is no capacity on its way").isEmpty();
    }

    @Test
    void readsPlacementGroupsCustomResourcesGpusAndMultiHostGroups() {
        RayCluster cluster = RayClusters.walkthrough("default", unique("mixed"));
        var groups = cluster.getSpec().getWorkerGroupSpecs();
        groups.add(RayClusters.group("gpu", 0, 0, 4, Map.of(), Map.of("cpu", "8", "memory", "32Gi", "nvidia.com/gpu", "1")));
        groups.add(RayClusters.group("accel", 0, 0, 4, Map.of("resources", "'\"{\\\"accel_x\\\": 2}\"'"), Map.of("cpu", "4")));
        var tpu = RayClusters.group("tpu", 0, 0, 2, Map.of(), Map.of("cpu", "8", "google.com/tpu", "4"));
        tpu.setNumOfHosts(4);
        groups.add(tpu);
        gcs.serve(GcsStates.state(7)
                .gang("a1", "STRICT_PACK", Map.of("GPU", 1.0), 2)
                .gang("b2", "STRICT_SPREAD", ONE_CPU, 3)
                .gang("c3", "PACK", ONE_CPU, 2)
                .gang("d4", "SPREAD", Map.of("TPU", 4.0), 4)
                .tasks(Map.of("accel_x", 1.0), 5)
                .build());
        create(cluster);

        // Under load a first GCS read can miss its deadline: that snapshot says so and carries no demand.
        ClusterSnapshot snapshot = EventCodec.SNAPSHOTS.decode(awaitRecord(cluster, ClusterSnapshot::hasRayState).value());

        assertThat(snapshot.workerGroups()).extracting(WorkerGroup::name, WorkerGroup::resources, WorkerGroup::numOfHosts).containsExactly(
                org.assertj.core.groups.Tuple.tuple("small-group", Resources.of("CPU", "1", "memory", "1073741824"), 1),
                org.assertj.core.groups.Tuple.tuple("gpu", Resources.of("CPU", "8", "GPU", "1", "memory", "34359738368"), 1),
                org.assertj.core.groups.Tuple.tuple("accel", Resources.of("CPU", "4", "accel_x", "2"), 1),
                org.assertj.core.groups.Tuple.tuple("tpu", Resources.of("CPU", "8", "TPU", "4"), 4));
        assertThat(snapshot.demand().gangs()).extracting(GangDemand::strategy).containsExactly(
                PlacementStrategy.STRICT_PACK, PlacementStrategy.STRICT_SPREAD, PlacementStrategy.PACK, PlacementStrategy.SPREAD);
        assertThat(snapshot.demand().tasks()).containsExactly(new TaskDemand(Resources.of("accel_x", "1"), 5));
    }

    /**
     * Fact D47: every GCS process writes Ray's client switch from its own config, "0" on a cluster whose in-tree autoscaling
     * is off; the collector sets it to "1" on each, so that ray status and request_resources take the v2 path.
     */
    @Test
    void setsRaysClientSwitchOnEveryGcsProcess() {
        gcs.serve(GcsStates.state(1).build());
        RayCluster cluster = create(RayClusters.walkthrough("default", unique("switch")));
        awaitRecord(cluster, ClusterSnapshot::hasRayState);
        await().atMost(WITHIN).until(() -> "1".equals(gcs.kv(RayKv.AUTOSCALER_V2_ENABLED)));
        // A GCS that has served a few reads: restarted, its counter starts again below them (fact A1.3). (One restarted after
        // its first read could not be told from it by the counter: the once-a-minute check catches that one.)
        int served = gcs.reads();
        await().atMost(WITHIN).until(() -> gcs.reads() >= served + 3);

        gcs.restart();
        assertThat(gcs.kv(RayKv.AUTOSCALER_V2_ENABLED)).as("the new process writes its own config").isEqualTo("0");

        await().atMost(WITHIN).until(() -> "1".equals(gcs.kv(RayKv.AUTOSCALER_V2_ENABLED)));
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> given().get("/q/metrics").then()
                .body(matchesPattern("(?s).*\\nrayscale_collector_client_switches_set_total [2-9][0-9]*\\.0\\n.*")));
    }

    /**
     * Fact D48: request_resources always writes its bundles to the GCS's KV, and gives them to the GCS itself only on the v2
     * path; the snapshot's floor is what the KV says (the latest call), the GCS's own only while no call wrote one. A value
     * that cannot be used leaves the floor as last read (unknown is not zero) and is told in a Warning Event.
     */
    @Test
    void takesTheRequestResourcesFloorFromTheKvOnEitherClientPath() {
        gcs.serve(GcsStates.state(1).constraint(Map.of("CPU", 4.0), 1).build());
        RayCluster cluster = create(RayClusters.walkthrough("default", unique("floor")));
        awaitRecord(cluster, s -> s.hasRayState() && s.demand().constraints().equals(List.of(floor("CPU", "4", 1))));
        String eightCpus = "[" + String.join(", ", Collections.nCopies(8, "{\"resources\": {\"CPU\": 1}, \"label_selector\": {}}")) + "]";

        gcs.putKv(RayKv.RESOURCE_REQUEST, eightCpus);
        awaitRecord(cluster, s -> s.hasRayState() && s.demand().constraints().equals(List.of(floor("CPU", "1", 8))));

        gcs.putKv(RayKv.RESOURCE_REQUEST, "[{\"CPU\": \"many\"}]");
        await().atMost(WITHIN).until(() -> warnings(cluster).stream().anyMatch(e -> "ResourceRequestsRefused".equals(e.getReason())));
        long refusedAt = records(cluster).size();
        await().atMost(WITHIN).until(() -> records(cluster).size() > refusedAt);
        assertThat(records(cluster).subList((int) refusedAt, records(cluster).size())).as("the floor as last read, not the GCS's")
                .allSatisfy(s -> assertThat(s.demand().constraints()).isEqualTo(List.of(floor("CPU", "1", 8))));

        gcs.putKv(RayKv.RESOURCE_REQUEST, "[{\"GPU\": 1}, {\"GPU\": 1}]");
        awaitRecord(cluster, s -> s.hasRayState() && s.demand().constraints().equals(List.of(floor("GPU", "1", 2))));

        gcs.putKv(RayKv.RESOURCE_REQUEST, "[]");
        awaitRecord(cluster, s -> s.hasRayState() && s.demand().constraints().isEmpty());
    }

    /**
     * A Ray before the autoscaler state service (its GCS answers UNIMPLEMENTED) is left alone with a Warning naming its
     * version and the lowest served, counted as unsupported, not as unreachable (fact D54).
     */
    @Test
    void leavesARayWithoutTheAutoscalerServiceAloneAndSaysWhy() {
        try (FakeGcs old = FakeGcs.ofRay("2.5.1")) {
            RayCluster cluster = RayClusters.walkthrough("default", unique("old-ray"));
            cluster.getMetadata().getAnnotations().put("rayscale.dev/gcs-address", old.address());
            create(cluster);

            ClusterSnapshot snapshot = EventCodec.SNAPSHOTS.decode(awaitRecord(cluster, s -> s.versions() != null).value());
            assertThat(snapshot.sources().gcs().errorCode()).isEqualTo("UNIMPLEMENTED");
            assertThat(snapshot.versions()).satisfies(versions -> {
                assertThat(versions.support()).isEqualTo(Support.UNSUPPORTED);
                assertThat(versions.ray()).isEqualTo("2.5.1");
                assertThat(versions.raySource()).isEqualTo(VersionSource.GCS);
            });
            await().atMost(WITHIN).until(() -> warnings(cluster).stream().anyMatch(e -> "RayVersionUnsupported".equals(e.getReason())));
            assertThat(warnings(cluster)).filteredOn(e -> "RayVersionUnsupported".equals(e.getReason())).singleElement()
                    .satisfies(event -> assertThat(event.getMessage()).contains("Ray 2.5.1", "2.7.0"));
            String unreachable = "(?s).*\\nrayscale_collector_gcs_unreachable_seconds\\{cluster=\"" + id(cluster) + "\"} 0\\.0\\n.*";
            await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> given().get("/q/metrics").then()
                    .body(matchesPattern("(?s).*\\nrayscale_collector_clusters_unsupported\\{support=\"UNSUPPORTED\"} [1-9][0-9]*\\.0\\n.*"))
                    .body(matchesPattern(unreachable)));
            assertThat(old.kv(RayKv.AUTOSCALER_V2_ENABLED)).as("a Ray without the v2 path is not switched").isNull();
        }
    }

    /** Ray 2.8 numbers drain reasons as the draft did: scaled up, never down, and told so (fact D54). */
    @Test
    void scalesARayWithTheDraftDrainReasonsUpOnly() {
        try (FakeGcs draft = FakeGcs.ofRay("2.8.1")) {
            RayCluster cluster = RayClusters.walkthrough("default", unique("draft-drains"));
            cluster.getMetadata().getAnnotations().put("rayscale.dev/gcs-address", draft.address());
            create(cluster);

            ClusterSnapshot snapshot = EventCodec.SNAPSHOTS.decode(awaitRecord(cluster, ClusterSnapshot::hasRayState).value());
            assertThat(snapshot.versions().support()).isEqualTo(Support.SCALE_UP_ONLY);
            assertThat(snapshot.versions().limits()).singleElement().asString().contains("Ray 2.8.1", "2.10.0");
            await().atMost(WITHIN).until(() -> warnings(cluster).stream().anyMatch(e -> "ScaleDownUnsafe".equals(e.getReason())));
        }
    }

    /** Pods made by a KubeRay before 1.1 name no pod to Ray (no RAY_CLOUD_INSTANCE_ID): the cluster is left alone (D54). */
    @Test
    void leavesAClusterWhosePodsAreOfAKubeRayBefore11Alone() {
        gcs.serve(GcsStates.state(1).build());
        RayCluster cluster = create(RayClusters.walkthrough("default", unique("old-kuberay")));
        Pod head = RayClusters.headPod(cluster, cluster.getMetadata().getName() + "-head");
        head.getSpec().getContainers().get(0).setEnv(List.of());
        kubernetes.pods().inNamespace("default").resource(head).create();

        ClusterSnapshot snapshot = EventCodec.SNAPSHOTS.decode(awaitRecord(cluster,
                s -> s.versions() != null && s.versions().kubeRay() == KubeRayGeneration.BEFORE_1_1).value());
        assertThat(snapshot.versions().support()).isEqualTo(Support.UNSUPPORTED);
        await().atMost(WITHIN).until(() -> warnings(cluster).stream().anyMatch(e -> "KubeRayVersionUnsupported".equals(e.getReason())));
    }

    @Test
    void anUnreachableGcsGivesUnavailableSnapshotsThenRecovers() {
        gcs.serve(GcsStates.state(1).tasks(ONE_CPU, 2).build());
        RayCluster cluster = create(RayClusters.walkthrough("default", unique("flaky")));
        awaitRecord(cluster, ClusterSnapshot::hasRayState);

        gcs.fail(Status.UNAVAILABLE.withDescription("connection refused"));
        ClusterSnapshot down = EventCodec.SNAPSHOTS.decode(awaitRecord(cluster, s -> !s.hasRayState()).value());
        assertThat(down.sources().gcs().status()).isEqualTo(SourceStatus.UNAVAILABLE);
        assertThat(down.sources().gcs().error()).isEqualTo("UNAVAILABLE: connection refused");
        assertThat(down.sources().gcs().errorCode()).isEqualTo("UNAVAILABLE");
        assertThat(down.demand()).as("unknown, not empty").isNull();
        assertThat(down.nodes()).isNull();
        // What the chart's RayscaleGcsUnreachable alert reads: seconds since the cluster's reads began to fail.
        String unreachable = "(?s).*\\nrayscale_collector_gcs_unreachable_seconds\\{cluster=\"default/" + cluster.getMetadata().getName() + "\"} ";
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> given().get("/q/metrics").then().statusCode(200)
                .body(matchesPattern(unreachable + "([1-9][0-9]*\\.[0-9]+|0\\.[0-9]*[1-9][0-9]*)\\n.*")));
        // gRPC's own client metrics time every GCS call by its status.
        given().get("/q/metrics").then().body(matchesPattern(
                "(?s).*\\ngrpc_client_processing_duration_seconds_count\\{method=\"GetClusterResourceState\",[^}]*statusCode=\"UNAVAILABLE\"} .*"));

        gcs.heal().serve(GcsStates.state(2).tasks(ONE_CPU, 3).build());
        ClusterSnapshot back = EventCodec.SNAPSHOTS.decode(awaitRecord(cluster,
                s -> s.hasRayState() && s.sequence() > down.sequence()).value());
        assertThat(back.demand().tasks()).containsExactly(new TaskDemand(Resources.of("CPU", "1"), 3));
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> given().get("/q/metrics").then()
                .body(matchesPattern(unreachable + "0\\.0\\n.*")));
    }

    /** A head pod answers what it likes: a NaN is a read that failed, said in the snapshot, and the cluster is read again. */
    @Test
    void aGcsAnsweringANotANumberIsAFailedReadAndTheClusterIsReadAgain() {
        gcs.serve(GcsStates.state(1).tasks(Map.of("CPU", Double.NaN), 2).build());
        RayCluster cluster = create(RayClusters.walkthrough("default", unique("nan")));

        ClusterSnapshot unusable = EventCodec.SNAPSHOTS.decode(awaitRecord(cluster, s -> !s.hasRayState()).value());
        assertThat(unusable.sources().gcs().errorCode()).isEqualTo("INVALID_REPLY");
        assertThat(unusable.sources().gcs().error()).contains("the GCS's answer cannot be used").contains("NaN is not finite");
        assertThat(unusable.demand()).as("unknown, not empty").isNull();

        gcs.serve(GcsStates.state(2).tasks(ONE_CPU, 3).build());
        ClusterSnapshot back = EventCodec.SNAPSHOTS.decode(awaitRecord(cluster,
                s -> s.hasRayState() && s.sequence() > unusable.sequence()).value());
        assertThat(back.demand().tasks()).containsExactly(new TaskDemand(Resources.of("CPU", "1"), 3));
    }

    /** What RayscaleGcsUnreachable reads goes with its cluster: one deleted while its GCS failed leaves no series growing for ever. */
    @Test
    void aClusterDeletedWhileItsGcsFailsTakesItsSeriesWithIt() {
        gcs.serve(GcsStates.state(1).build());
        RayCluster cluster = create(RayClusters.walkthrough("default", unique("deleted")));
        awaitRecord(cluster, ClusterSnapshot::hasRayState);
        gcs.fail(Status.UNAVAILABLE.withDescription("the head pod is going"));
        String unreachable = "rayscale_collector_gcs_unreachable_seconds{cluster=\"" + id(cluster) + "\"}";
        String errors = "rayscale_collector_gcs_errors_total{cluster=\"" + id(cluster) + "\"";
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> given().get("/q/metrics").then().statusCode(200)
                .body(containsString(unreachable)).body(containsString(errors)));

        kubernetes.resources(RayCluster.class).inNamespace("default").withName(cluster.getMetadata().getName()).delete();

        await().atMost(WITHIN).until(() -> !poller.trackedClusters().contains(id(cluster)));
        given().get("/q/metrics").then().statusCode(200).body(not(containsString(unreachable))).body(not(containsString(errors)));
    }

    /**
     * A RayCluster written by a newer KubeRay, with a field and an enum value this model does not know, is read, and holds
     * up no other: with the client's own rules it failed to read, and with it the informer's list of every RayCluster. The
     * value it reads as unset is named in a Warning on the cluster, since Rayscale scales it by the field's default.
     */
    @Test
    void readsARayClusterOfANewerKubeRayAndTheOthersBesideIt() {
        gcs.serve(GcsStates.state(1).tasks(ONE_CPU, 2).build());
        RayCluster newer = RayClusters.walkthrough("default", unique("newer"));
        newer.getMetadata().getAnnotations().put("rayscale.dev/gcs-address", gcs.address());
        RayClusters.createAsOfANewerKubeRay(kubernetes, newer);
        RayCluster beside = create(RayClusters.walkthrough("default", unique("beside")));

        ClusterSnapshot snapshot = EventCodec.SNAPSHOTS.decode(awaitRecord(newer, ClusterSnapshot::hasRayState).value());
        assertThat(snapshot.demand().tasks()).containsExactly(new TaskDemand(Resources.of("CPU", "1"), 2));
        assertThat(snapshot.sources().kubernetes().status()).isEqualTo(SourceStatus.OK);
        assertThat(snapshot.policy().upscalingMode()).isEqualTo(UpscalingMode.DEFAULT);
        awaitRecord(beside, ClusterSnapshot::hasRayState);
        await().atMost(WITHIN).until(() -> warnings(newer).stream().anyMatch(e -> "UnknownKubeRayValues".equals(e.getReason())));
        assertThat(warnings(newer)).singleElement().satisfies(warning -> assertThat(warning.getMessage())
                .contains("spec.autoscalerOptions.upscalingMode='" + RayClusters.NEWER_AUTOSCALER_OPTIONS.get("upscalingMode") + "'"));
        assertThat(warnings(beside)).isEmpty();
    }

    @Test
    void aRayClusterEditReachesTheNextSnapshot() {
        gcs.serve(GcsStates.state(1).build());
        RayCluster cluster = create(RayClusters.walkthrough("default", unique("edited")));
        awaitRecord(cluster, s -> s.workerGroups().get(0).maxReplicas() == 20);

        kubernetes.resources(RayCluster.class).inNamespace("default").withName(cluster.getMetadata().getName())
                .edit(c -> {
                    c.getSpec().getWorkerGroupSpecs().get(0).setMaxReplicas(7);
                    return c;
                });

        await().atMost(Duration.ofSeconds(2)).until(() -> records(cluster).stream()
                .anyMatch(s -> s.workerGroups().get(0).maxReplicas() == 7));
    }

    /**
     * KubeRay 1.3+ stops at a spec it finds invalid and writes no status (raycluster_controller.go rayClusterReconcile, after
     * utils.ValidateRayClusterSpec; SpecLag): its status.observedGeneration stays behind. Past the patience (2 s here) the
     * snapshot says so, and the owners are told; once KubeRay catches up, the snapshots say nothing of it.
     */
    @Test
    void aSpecKubeRayDoesNotActOnIsSaidSoAndWarnedOf() {
        gcs.serve(GcsStates.state(1).build());
        RayCluster cluster = create(RayClusters.walkthrough("default", unique("invalid")));
        observedGeneration(cluster, 1);
        awaitRecord(cluster, s -> s.sources().kubernetes().generation() == 1);

        kubernetes.resources(RayCluster.class).inNamespace("default").withName(cluster.getMetadata().getName()).edit(c -> {
            c.getSpec().getWorkerGroupSpecs().get(0).setMinReplicas(30);
            return c;
        });

        ClusterSnapshot held = EventCodec.SNAPSHOTS.decode(awaitRecord(cluster, s -> s.sources().kubernetes().notReconciled() != null).value());
        assertThat(held.sources().kubernetes().notReconciled()).contains("generation 2", "status.observedGeneration is 1",
                "InvalidRayClusterSpec");
        assertThat(records(cluster)).filteredOn(s -> s.sources().kubernetes().generation() == 2).first()
                .as("not before KubeRay has had its time").satisfies(s -> assertThat(s.sources().kubernetes().notReconciled()).isNull());
        await().atMost(WITHIN).until(() -> warnings(cluster).stream().anyMatch(e -> "SpecNotReconciled".equals(e.getReason())));

        observedGeneration(cluster, 2);
        long before = records(cluster).size();
        await().atMost(WITHIN).until(() -> records(cluster).stream().skip(before).anyMatch(s -> s.sources().kubernetes().notReconciled() == null));
    }

    /** Writes {@code status.observedGeneration} as KubeRay's reconcile does. */
    private void observedGeneration(RayCluster cluster, long generation) {
        kubernetes.resources(RayCluster.class).inNamespace("default").withName(cluster.getMetadata().getName()).editStatus(c -> {
            RayClusterStatus status = c.getStatus() == null ? new RayClusterStatus() : c.getStatus();
            status.setObservedGeneration(generation);
            c.setStatus(status);
            return c;
        });
    }

    @Test
    void aClusterWithInTreeAutoscalingGetsAWarningAndNoSnapshots() {
        RayCluster fighting = RayClusters.walkthrough("default", unique("fighting"));
        fighting.getSpec().setEnableInTreeAutoscaling(true);
        create(fighting);
        RayCluster fine = create(RayClusters.walkthrough("default", unique("fine")));

        await().atMost(WITHIN).until(() -> warnings(fighting).stream().anyMatch(e -> "InTreeAutoscalingEnabled".equals(e.getReason())));
        awaitRecord(fine, s -> true);
        long heartbeatsOfFine = records(fine).size();
        await().atMost(WITHIN).until(() -> records(fine).size() > heartbeatsOfFine);
        assertThat(records(fighting)).isEmpty();
        assertThat(poller.trackedClusters()).doesNotContain(id(fighting));
    }

    @Test
    void stopsReadingAClusterThatOptsOut() {
        gcs.serve(GcsStates.state(1).build());
        RayCluster cluster = create(RayClusters.walkthrough("default", unique("leaving")));
        awaitRecord(cluster, s -> true);

        kubernetes.resources(RayCluster.class).inNamespace("default").withName(cluster.getMetadata().getName())
                .edit(c -> {
                    c.getMetadata().getAnnotations().remove(RayClusters.OPT_IN);
                    return c;
                });

        await().atMost(WITHIN).until(() -> !poller.trackedClusters().contains(id(cluster)));
        int reads = gcs.reads();
        // Later rounds run (another cluster, with a GCS of its own, gets snapshots); none reads the leaver's GCS.
        try (FakeGcs otherGcs = FakeGcs.start()) {
            RayCluster other = RayClusters.walkthrough("default", unique("other"));
            other.getMetadata().getAnnotations().put("rayscale.dev/gcs-address", otherGcs.address());
            create(other);
            awaitRecord(other, s -> true);
        }
        assertThat(gcs.reads()).isEqualTo(reads);
    }

    @Test
    void sendsTheClustersTokenWhenAuthIsOn() {
        String name = unique("secured");
        tokenSecret("default", name, "s3cret");
        gcs.requireToken("s3cret").serve(GcsStates.state(4).build());
        RayCluster cluster = RayClusters.walkthrough("default", name);
        cluster.getSpec().setAuthOptions(tokenAuth(null));
        create(cluster);

        // The GCS answers only calls carrying the token: a snapshot with Ray state shows it was sent.
        awaitRecord(cluster, ClusterSnapshot::hasRayState);
        assertThat(gcs.authorizations()).contains("Bearer s3cret");
    }

    /** A tenant names another cluster's Secret as its own token: Rayscale must not read it, or send it to the tenant's GCS. */
    @Test
    void anotherClustersTokenIsNeitherReadNorSent() {
        String victim = unique("victim");
        tokenSecret("default", victim, "victims-token");
        gcs.requireToken("victims-token").serve(GcsStates.state(4).build());
        RayCluster thief = RayClusters.walkthrough("default", unique("thief"));
        thief.getSpec().setAuthOptions(tokenAuth(victim));
        create(thief);

        ClusterSnapshot refused = EventCodec.SNAPSHOTS.decode(awaitRecord(thief, s -> !s.hasRayState()).value());
        assertThat(refused.sources().gcs().errorCode()).isEqualTo("UNAUTHENTICATED");
        assertThat(gcs.authorizations()).doesNotContain("Bearer victims-token");
        await().atMost(WITHIN).untilAsserted(() -> assertThat(warnings(thief, "GcsSettingRefused")).singleElement().asString()
                .contains("authOptions.secretName names the Secret '" + victim + "'").contains("gcs.tokenSecrets"));
    }

    /** Outside the namespaces the administrator allows, rayscale.dev/gcs-address is refused and nothing is sent there. */
    @Test
    void aGcsAddressTheTenantChoseIsNotDialledWhereItIsNotAllowed() {
        String name = unique("tenant-b", "aiming");
        tokenSecret("tenant-b", name, "tenant-b-token");
        int callsBefore = gcs.authorizations().size();
        RayCluster aiming = RayClusters.walkthrough("tenant-b", name);
        aiming.getSpec().setAuthOptions(tokenAuth(null));
        create(aiming);

        ClusterSnapshot unreached = EventCodec.SNAPSHOTS.decode(awaitRecord(aiming, s -> !s.hasRayState()).value());
        assertThat(unreached.sources().gcs().error()).contains(name + "-head-svc.tenant-b.svc");
        assertThat(gcs.authorizations().subList(callsBefore, gcs.authorizations().size())).doesNotContain("Bearer tenant-b-token");
        await().atMost(WITHIN).untilAsserted(() -> assertThat(warnings(aiming, "GcsSettingRefused")).singleElement().asString()
                .contains("is not allowed in namespace tenant-b").contains("gcs.addressOverrideNamespaces"));
    }

    private void tokenSecret(String namespace, String name, String token) {
        kubernetes.secrets().inNamespace(namespace).resource(new SecretBuilder().withNewMetadata().withName(name).endMetadata()
                .addToData("auth_token", Base64.getEncoder().encodeToString(token.getBytes(StandardCharsets.UTF_8))).build()).create();
    }

    private static AuthOptions tokenAuth(String secretName) {
        AuthOptions auth = new AuthOptions();
        auth.setMode(AuthOptions.Mode.TOKEN);
        auth.setSecretName(secretName);
        return auth;
    }

    private List<String> warnings(RayCluster cluster, String reason) {
        return warnings(cluster).stream().filter(e -> reason.equals(e.getReason())).map(Event::getMessage).toList();
    }

    @Test
    void exposesHealthAndMetrics() {
        given().get("/q/health/ready").then().statusCode(200).body(containsString("Kubernetes inventory")).body(containsString("Kafka"));
        gcs.serve(GcsStates.state(1).build());
        RayCluster cluster = create(RayClusters.walkthrough("default", unique("metered")));
        kubernetes.pods().inNamespace("default").resource(RayClusters.headPod(cluster, cluster.getMetadata().getName() + "-head")).create();
        awaitRecord(cluster, s -> true);
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> given().get("/q/metrics").then().statusCode(200)
                .body(matchesPattern("(?s).*\\nrayscale_collector_clusters_watched [1-9][0-9]*\\.0\\n.*"))
                .body(matchesPattern("(?s).*\\nrayscale_collector_pods_cached [1-9][0-9]*\\.0\\n.*"))
                .body(containsString("rayscale_collector_poll_duration_seconds")));
    }

    private RayCluster create(RayCluster cluster) {
        cluster.getMetadata().getAnnotations().putIfAbsent("rayscale.dev/gcs-address", gcs.address());
        return kubernetes.resources(RayCluster.class).inNamespace(cluster.getMetadata().getNamespace()).resource(cluster).create();
    }

    private ConsumerRecord<String, byte[]> awaitRecord(RayCluster cluster, Predicate<ClusterSnapshot> matching) {
        String key = id(cluster);
        await().atMost(WITHIN).until(() -> snapshots.getRecords().stream()
                .anyMatch(r -> key.equals(r.key()) && matching.test(EventCodec.SNAPSHOTS.decode(r.value()))));
        return snapshots.getRecords().stream()
                .filter(r -> key.equals(r.key()) && matching.test(EventCodec.SNAPSHOTS.decode(r.value()))).findFirst().orElseThrow();
    }

    private List<ClusterSnapshot> records(RayCluster cluster) {
        String key = id(cluster);
        return snapshots.getRecords().stream().filter(r -> key.equals(r.key())).map(r -> EventCodec.SNAPSHOTS.decode(r.value())).toList();
    }

    private List<Event> warnings(RayCluster cluster) {
        return kubernetes.v1().events().inNamespace(cluster.getMetadata().getNamespace()).list().getItems().stream()
                .filter(e -> cluster.getMetadata().getName().equals(e.getInvolvedObject().getName()))
                .filter(e -> "Warning".equals(e.getType())).toList();
    }

    private static ResourceConstraint floor(String resource, String amount, long count) {
        return new ResourceConstraint(List.of(new ShapeCount(Resources.of(resource, amount), count)));
    }

    private static String id(RayCluster cluster) {
        return cluster.getMetadata().getNamespace() + "/" + cluster.getMetadata().getName();
    }

    private static String hex(String nodeId) {
        return HexFormat.of().formatHex(nodeId.getBytes(StandardCharsets.UTF_8));
    }

    /** A name no earlier cluster had, in the namespace every cluster of this class is created in; its snapshots are read. */
    private static String unique(String name) {
        return unique("default", name);
    }

    private static String unique(String namespace, String name) {
        String unique = name + "-" + Long.toHexString(System.nanoTime()).substring(6);
        OURS.add(namespace + "/" + unique);
        return unique;
    }

    /** Run after the others: a grant that none of the service's calls needed is one too many. */
    @Test
    @Order(Integer.MAX_VALUE)
    void everyGrantTheChartGivesIsUsed() {
        assertThat(CALLS.unused()).as("grants no call needed").isEmpty();
    }
}
