package dev.rayscale.sim;

import static dev.rayscale.sim.SimFixture.ONE_CPU;
import static dev.rayscale.sim.SimFixture.id;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.rayscale.events.Resources;
import dev.rayscale.gcs.RayKv;
import dev.rayscale.gcs.proto.AutoscalingState;
import dev.rayscale.gcs.proto.DrainNodeReason;
import dev.rayscale.gcs.proto.FailedInstanceRequest;
import dev.rayscale.gcs.proto.NodeState;
import dev.rayscale.gcs.proto.NodeStatus;
import dev.rayscale.gcs.proto.PendingInstanceRequest;
import dev.rayscale.kuberay.NodeEnv;
import dev.rayscale.kuberay.RayLabels;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.Pod;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The simulated Ray clients and the Ray and KubeRay generations against the facts of the shared ray-kuberay-behaviours.md,
 * section D, and the history read for them ({@link RayRelease}, {@link KubeRayRelease}): each case names the versions it
 * models and what in Ray's or KubeRay's source says so. Everything is observed as a client observes it: over the GCS's gRPC
 * services, the Kubernetes API, and {@code ray status}'s text.
 */
class GenerationsConformanceTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** One fact on a cluster of the given versions, and what else its cluster says (YAML lines of the workload's cluster). */
    record Case(String ray, String kubeRay, Consumer<SimFixture> check, String... cluster) {

        Named<Case> named(String name) {
            return Named.of(name + " [Ray " + ray + ", KubeRay " + kubeRay + "]", this);
        }
    }

    static Stream<Named<Case>> facts() {
        return Stream.of(
                fact("D47 the GCS writes the client switch \"0\" at every start; a fresh client takes the v1 path until it says \"1\" "
                        + "(gcs_server.cc InitGcsAutoscalerStateManager, overwrite=true; utils.py is_autoscaler_v2 == b\"1\")", current(), f -> {
                    assertThat(f.kvGet(RayKv.AUTOSCALER_V2_ENABLED).getValue().toStringUtf8()).isEqualTo("0");
                    assertThat(f.sim.rayStatus(ClientPath.FRESH)).as("v1: the monitor's nodes").contains(" 1 node_").doesNotContain("Idle:");
                    f.kvPut(RayKv.AUTOSCALER_V2_ENABLED, "1");
                    assertThat(f.sim.rayStatus(ClientPath.FRESH)).as("v2: nodes by group").contains("Idle:\n 1 headgroup\n");
                    assertThat(f.sim.rayStatus(ClientPath.V1)).as("a client that decided before keeps v1").doesNotContain("Idle:");
                    f.sim.ray().crashGcs();
                    f.advance(15);
                    assertThat(f.kvGet(RayKv.AUTOSCALER_V2_ENABLED).getValue().toStringUtf8()).as("a restarted GCS writes it again").isEqualTo("0");
                }),
                fact("D47 on the v1 path ray status formats what the head's read-only monitor wrote: node_<id>, no Idle, nothing pending, "
                        + "however much the GCS holds reported (monitor.py BASE_READONLY_CONFIG; format_info_string)", current(), f -> {
                    f.report(AutoscalingState.newBuilder().setAutoscalerStateVersion(1)
                            .addPendingInstanceRequests(PendingInstanceRequest.newBuilder().setRayNodeTypeName("cpu").setCount(1)).build());
                    String head = id(f.read().getNodeStates(0));
                    String v1 = f.sim.rayStatus(ClientPath.V1);
                    assertThat(v1).contains("Active:\n 1 node_" + head + "\nPending:\n (no pending nodes)\nRecent failures:\n (no failures)\n",
                            "Total Usage:\n 0B/2.00GiB memory\n\nFrom request_resources:\n (none)\nPending Demands:\n (no resource demands)");
                    assertThat(f.sim.rayStatus(ClientPath.V2)).contains("Pending:\n cpu, 1 launching\n");
                }),
                fact("D48 request_resources always writes the KV; only the v2 path fills the GCS's constraint (commands.request_resources)",
                        current(), f -> {
                    f.sim.ray().requestResources(8, List.of(), ClientPath.V1);
                    assertThat(f.read().getClusterResourceConstraintsList()).as("v1: nothing in the GCS").isEmpty();
                    JsonNode written = json(f.kvGet(RayKv.RESOURCE_REQUEST).getValue().toStringUtf8());
                    assertThat(written).hasSize(8).allSatisfy(entry ->
                            assertThat(entry.toString()).isEqualTo("{\"resources\":{\"CPU\":1},\"label_selector\":{}}"));
                    f.advance(5);
                    assertThat(f.sim.rayStatus(ClientPath.V1)).contains("From request_resources:\n {'CPU': 1}: 8 from request_resources()\n");
                    f.sim.ray().requestResources(8, List.of(), ClientPath.V2);
                    assertThat(f.read().getClusterResourceConstraintsList()).singleElement()
                            .satisfies(c -> assertThat(c.getResourceRequests(0).getCount()).isEqualTo(8));
                    assertThat(f.sim.rayStatus(ClientPath.V2)).contains("From request_resources:\n {'CPU': 1.0}: 8 from request_resources()\n");
                }),
                fact("D50 ray status formats a failed launch's start_ts with datetime.fromtimestamp: seconds print, milliseconds fail",
                        current(), f -> {
                    f.report(failedAt(1_700_000_000L));
                    assertThat(f.sim.rayStatus(ClientPath.V2)).contains(" tpu: LaunchFailed (latest_attempt: 22:13:20)\n");
                    f.report(failedAt(1_700_000_000_000L));
                    RayStatus.Failed failed = catchThrowableOfType(RayStatus.Failed.class, () -> f.sim.rayStatus(ClientPath.V2));
                    assertThat(failed).hasMessage("ValueError: year 55840 is out of range");
                }),
                fact("the KV answers a missing key with NotFound (17) in its reply, not a gRPC error; the head records its Ray version "
                        + "(gcs_kv_manager.cc HandleInternalKVGet; usage_lib put_cluster_metadata)", current(), f -> {
                    var missing = f.kvGet(new RayKv.Key("", "no-such-key"));
                    assertThat(missing.getStatus().getCode()).isEqualTo(RayKv.NOT_FOUND);
                    assertThat(missing.getStatus().getMessage()).isEqualTo("Failed to find the key");
                    assertThat(json(f.kvGet(RayKv.CLUSTER_METADATA).getValue().toStringUtf8()).get("ray_version").asText())
                            .isEqualTo(RayRelease.CURRENT);
                }),
                fact("Ray 2.5.1 has no autoscaler state service: its calls answer UNIMPLEMENTED, its KV answers, and every client takes "
                        + "the v1 path (GCS handlers from PRs 35596 and 36768, mid-2023)", versions("2.5.1", KubeRayRelease.CURRENT), f -> {
                    StatusRuntimeException refused = catchThrowableOfType(StatusRuntimeException.class, f::read);
                    assertThat(refused.getStatus().getCode()).isEqualTo(Status.Code.UNIMPLEMENTED);
                    assertThat(json(f.kvGet(RayKv.CLUSTER_METADATA).getValue().toStringUtf8()).get("ray_version").asText()).isEqualTo("2.5.1");
                    assertThat(f.kvGet(RayKv.AUTOSCALER_V2_ENABLED).getStatus().getCode()).isEqualTo(RayKv.NOT_FOUND);
                    f.kvPut(RayKv.AUTOSCALER_V2_ENABLED, "1");
                    assertThat(f.sim.rayStatus(ClientPath.FRESH)).as("no v2 path to take").doesNotContain("Idle:").contains(" 1 node_");
                }),
                fact("Ray 2.8.1 numbers drain reasons as the draft did (IDLE_TERMINATION 0, PREEMPTION 1, PR 37836): a drain sent as "
                        + "today's IDLE_TERMINATION is a PREEMPTION a busy node accepts", versions("2.8.1", KubeRayRelease.CURRENT), f -> {
                    String pod = f.running("cpu", 1).get(0);
                    String node = id(f.aliveNodeOf(pod));
                    f.submit(ONE_CPU, 1, 100);
                    f.advance(1);
                    var asZero = f.drainRaw(node, 0);
                    assertThat(asZero.getIsAccepted()).as("0 is the draft's IDLE_TERMINATION").isFalse();
                    assertThat(asZero.getRejectionReasonMessage()).as("the draft's reply had no message").isEmpty();
                    assertThat(f.drain(node, DrainNodeReason.DRAIN_NODE_REASON_IDLE_TERMINATION, 0).getIsAccepted())
                            .as("1 is the draft's PREEMPTION").isTrue();
                }),
                fact("current Ray: a drain reason other than IDLE_TERMINATION or PREEMPTION fails the raylet's check and it exits "
                        + "(node_manager.cc HandleDrainRaylet RAY_CHECK_EQ)", current(), f -> {
                    String pod = f.running("cpu", 1).get(0);
                    String node = id(f.aliveNodeOf(pod));
                    StatusRuntimeException failed = catchThrowableOfType(StatusRuntimeException.class, () -> f.drainRaw(node, 0));
                    assertThat(failed.getStatus().getCode()).isEqualTo(Status.Code.UNAVAILABLE);
                    f.advance(70);
                    assertThat(f.nodesOf(pod)).anySatisfy(state -> {
                        assertThat(id(state)).isEqualTo(node);
                        assertThat(state.getStatus()).isEqualTo(NodeStatus.DEAD);
                    });
                }),
                fact("D53 current Ray labels each node ray.io/node-id and, from RAY_NODE_TYPE_NAME, ray.io/node-group; Ray 2.44.0 reports "
                        + "no labels (PR 53360; constants.h of 2.44.0 has only ray.io/node_id)", current(), f -> {
                    String pod = f.running("cpu", 1).get(0);
                    NodeState node = f.aliveNodeOf(pod);
                    assertThat(node.getLabelsMap()).containsEntry(RaySim.NODE_GROUP_LABEL, "cpu").containsEntry(RaySim.NODE_ID_LABEL, id(node));
                }),
                fact("D52 current Ray sends a placement group's bundles as one bundle selector, each bundle's label selector there only, "
                        + "and the deprecated requests without them; a task's selector in label_selectors (GetPendingGangResourceRequests, "
                        + "PRs 53578, 55106); work goes only to nodes carrying the labels", current(), f -> {
                    f.sim.ray().submitGang("pg1", dev.rayscale.events.PlacementStrategy.PACK, List.of(Resources.of("CPU", "1"), Resources.of("CPU", "1")),
                            List.of(Map.of(RaySim.NODE_GROUP_LABEL, "tpu"), Map.of()), 100);
                    f.sim.ray().submitTasks(Resources.of("CPU", "1"), 2, 100, Map.of(RaySim.NODE_GROUP_LABEL, "tpu"), version -> { });
                    f.running("cpu", 2);
                    var state = f.read();
                    var gang = state.getPendingGangResourceRequests(0);
                    assertThat(gang.getRequestsList()).hasSize(2).allSatisfy(request -> assertThat(request.getLabelSelectorsList()).isEmpty());
                    assertThat(gang.getBundleSelectorsList()).singleElement().satisfies(selector -> {
                        assertThat(selector.getResourceRequests(0).getLabelSelectors(0).getLabelConstraints(0).getLabelValues(0)).isEqualTo("tpu");
                        assertThat(selector.getResourceRequests(1).getLabelSelectorsList()).isEmpty();
                    });
                    assertThat(state.getPendingResourceRequestsList()).singleElement().satisfies(request -> {
                        assertThat(request.getCount()).as("on no cpu node").isEqualTo(2);
                        assertThat(request.getRequest().getLabelSelectors(0).getLabelConstraints(0).getLabelKey()).isEqualTo(RaySim.NODE_GROUP_LABEL);
                    });
                }),
                fact("D52 Ray 2.44.0 sends neither bundle selectors nor label selectors", versions("2.44.0", KubeRayRelease.CURRENT), f -> {
                    f.sim.ray().submitGang("pg1", dev.rayscale.events.PlacementStrategy.PACK, List.of(Resources.of("CPU", "1")),
                            List.of(Map.of("accel", "x")), 100);
                    assertThat(f.read().getPendingGangResourceRequests(0).getBundleSelectorsList()).isEmpty();
                }),
                fact("D53 Ray 2.44.0 reports no node labels", versions("2.44.0", KubeRayRelease.CURRENT), f -> {
                    String pod = f.running("cpu", 1).get(0);
                    assertThat(f.aliveNodeOf(pod).getLabelsMap()).isEmpty();
                }),
                fact("Ray 2.52.1's read-only v1 monitor cannot read request_resources entries with selectors and stops: v1 ray status "
                        + "keeps its last status and shows the error (ray-project/ray issues 59677, 61673; fixed by PR 59850)",
                        versions("2.52.1", KubeRayRelease.CURRENT), f -> {
                    f.sim.ray().requestResources(2, List.of(), ClientPath.V1);
                    f.advance(6);
                    assertThat(f.sim.rayStatus(ClientPath.V1)).contains("(none)", "\nThe autoscaler failed with the following error:\n");
                }),
                fact("KubeRay 1.0.0 sets no RAY_CLOUD_INSTANCE_ID or RAY_NODE_TYPE_NAME: Ray nodes carry no pod name and no group "
                        + "(kuberay v1.1.0 setContainerEnvVars, PRs 1759 and 1973; the raylet reads both with std::getenv); workers are "
                        + "named <cluster>-worker-<group>- (CheckName)", versions(RayRelease.CURRENT, "1.0.0"), f -> {
                    List<String> pods = f.running("cpu", 2);
                    assertThat(pods).allSatisfy(pod -> assertThat(pod).startsWith(SimFixture.NAME + "-worker-cpu-"));
                    assertThat(f.read().getNodeStatesList()).hasSize(3).allSatisfy(node -> {
                        assertThat(node.getInstanceId()).isEmpty();
                        assertThat(node.getRayNodeTypeName()).isEmpty();
                        assertThat(node.getLabelsMap()).doesNotContainKey(RaySim.NODE_GROUP_LABEL);
                    });
                    assertThat(f.pods("cpu")).allSatisfy(pod -> assertThat(env(pod)).isEmpty());
                }),
                fact("KubeRay 1.7.0 names each pod to Ray through the downward API, sets RAY_CLUSTER_NAMESPACE and marks the head with its "
                        + "version (setContainerEnvVars; createHeadPod, PR 4185)", current(), f -> {
                    String pod = f.running("cpu", 1).get(0);
                    assertThat(f.aliveNodeOf(pod).getRayNodeTypeName()).isEqualTo("cpu");
                    assertThat(env(f.pods("cpu").get(0))).extracting(EnvVar::getName)
                            .containsExactly(NodeEnv.INSTANCE_ID, NodeEnv.NODE_TYPE_NAME, NodeEnv.CLUSTER_NAMESPACE);
                    assertThat(f.head().getMetadata().getAnnotations()).containsEntry(NodeEnv.KUBERAY_VERSION_ANNOTATION, "v1.7.0");
                }),
                new Case(RayRelease.CURRENT, "1.2.0", f -> {
                    f.replicas("cpu", 3);
                    f.advance(2);
                    assertThat(f.podNames("cpu")).hasSize(1);
                    assertThat(f.events()).anyMatch(e -> "FailedToCreateWorkerPod".equals(e.getReason()));
                    assertThat(f.cluster().getStatus().getConditions()).as("no condition written").isNullOrEmpty();
                }, "  quota: {group: cpu, maxPods: 1}").named("KubeRay 1.2.0 reports pods it cannot create in an Event only: the "
                        + "ReplicaFailure condition needs the RayClusterStatusConditions gate, on by default from v1.3.0 (features.go)"),
                fact("KubeRay 1.5.1's multi-host pods carry no replica name (RayMultiHostIndexing on by default from v1.6.0)",
                        versions(RayRelease.CURRENT, "1.5.1"), f -> {
                    f.running("tpu", 1);
                    assertThat(f.pods("tpu")).hasSize(2).allSatisfy(pod -> assertThat(pod.getMetadata().getLabels())
                            .doesNotContainKey(RayLabels.REPLICA));
                    assertThat(f.head().getMetadata().getAnnotations()).doesNotContainKey(NodeEnv.KUBERAY_VERSION_ANNOTATION);
                }));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("facts")
    void behavesAsThatGenerationDoes(Case fact) {
        String[] cluster = Arrays.copyOf(fact.cluster(), fact.cluster().length + 1);
        cluster[fact.cluster().length] = "  versions: {ray: \"" + fact.ray() + "\", kubeRay: \"" + fact.kubeRay() + "\"}";
        try (SimFixture fixture = SimFixture.start(cluster)) {
            fact.check().accept(fixture);
        }
    }

    private static String[] current() {
        return new String[] {RayRelease.CURRENT, KubeRayRelease.CURRENT};
    }

    private static String[] versions(String ray, String kubeRay) {
        return new String[] {ray, kubeRay};
    }

    private static Named<Case> fact(String name, String[] versions, Consumer<SimFixture> check) {
        return new Case(versions[0], versions[1], check).named(name);
    }

    private static AutoscalingState failedAt(long startTs) {
        return AutoscalingState.newBuilder().setAutoscalerStateVersion(startTs)
                .addFailedInstanceRequests(FailedInstanceRequest.newBuilder().setRayNodeTypeName("tpu").setCount(1).setReason("exceeded quota")
                        .setStartTs(startTs).setFailedTs(startTs)).build();
    }

    private static List<EnvVar> env(Pod pod) {
        return pod.getSpec().getContainers().get(0).getEnv();
    }

    private static JsonNode json(String text) {
        try {
            return JSON.readTree(text);
        } catch (Exception unreadable) {
            throw new AssertionError("not JSON: " + text, unreadable);
        }
    }
}
