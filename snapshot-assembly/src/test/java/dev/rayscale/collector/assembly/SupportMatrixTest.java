package dev.rayscale.collector.assembly;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rayscale.events.ClusterVersions;
import dev.rayscale.events.KubeRayGeneration;
import dev.rayscale.events.Support;
import dev.rayscale.events.VersionSource;
import dev.rayscale.kuberay.NodeEnv;
import dev.rayscale.testsupport.RayClusters;
import io.fabric8.kubernetes.api.model.Pod;
import io.ray.v1.RayCluster;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The support matrix of docs/ray-versions.md, row by row, with the version facts it rests on. */
class SupportMatrixTest {

    private static final String LABEL = "ray.io/worker-group-replica-name";

    /** A cluster whose spec says {@code specVersion}, head image {@code image}, pods of {@code kubeRay}, GCS recording {@code gcs}. */
    record Case(String specVersion, String image, KubeRayGeneration kubeRay, String gcs, boolean noService, int hosts,
            Consumer<SupportMatrix.Assessment> then) {
    }

    static Stream<Named<Case>> rows() {
        return Stream.of(
                row("current Ray and KubeRay: full service", new Case("2.41.0", "rayproject/ray:2.41.0", KubeRayGeneration.FROM_1_6, "2.54.0",
                        false, 1, found -> {
                    assertThat(found.versions()).isEqualTo(new ClusterVersions("2.54.0", VersionSource.GCS, KubeRayGeneration.FROM_1_6,
                            Support.FULL, List.of()));
                    assertThat(found.warning()).isNull();
                })),
                row("what runs wins over what the spec says", new Case("2.8.0", "rayproject/ray:2.8.0-py311",
                        KubeRayGeneration.FROM_1_6, "2.54.0", false, 1, found -> {
                    assertThat(found.versions().ray()).isEqualTo("2.54.0");
                    assertThat(found.versions().raySource()).isEqualTo(VersionSource.GCS);
                    assertThat(found.versions().support()).isEqualTo(Support.FULL);
                })),
                row("without the GCS's word, spec.rayVersion, then the image tag; neither grants a scale-down", new Case("2.41.0",
                        "rayproject/ray:2.8.0-py311", KubeRayGeneration.FROM_1_6, null, false, 1, found -> {
                    assertThat(found.versions().ray()).isEqualTo("2.41.0");
                    assertThat(found.versions().raySource()).isEqualTo(VersionSource.SPEC);
                    assertThat(found.versions().support()).isEqualTo(Support.SCALE_UP_ONLY);
                    assertThat(found.versions().limits()).singleElement().asString().contains("not read from the GCS", "2.41.0");
                })),
                row("a spec too old lowers the support even without the GCS's word", new Case("2.5.0", null, KubeRayGeneration.FROM_1_6,
                        null, false, 1, found -> assertThat(found.versions().support()).isEqualTo(Support.UNSUPPORTED))),
                row("the image's tag when nothing else says", new Case(null, "registry.local:5000/ray:2.8.0-py311-cu121",
                        KubeRayGeneration.FROM_1_6, null, false, 1, found -> {
                    assertThat(found.versions().ray()).isEqualTo("2.8.0-py311-cu121");
                    assertThat(found.versions().raySource()).isEqualTo(VersionSource.IMAGE);
                    assertThat(found.versions().support()).isEqualTo(Support.SCALE_UP_ONLY);
                })),
                row("a version nothing tells: scaled up only (drain numbering unknown)", new Case(null, "registry.local:5000/ray@sha256:0123",
                        KubeRayGeneration.FROM_1_6, null, false, 1, found -> {
                    assertThat(found.versions().ray()).isNull();
                    assertThat(found.versions().support()).isEqualTo(Support.SCALE_UP_ONLY);
                    assertThat(found.warning()).isEqualTo("ScaleDownUnsafe");
                    assertThat(found.versions().limits()).singleElement().asString().contains("unknown", "2.10.0");
                })),
                row("Ray 2.6.3: older than the autoscaler state service", new Case("2.6.3", "rayproject/ray:2.6.3", KubeRayGeneration.FROM_1_6,
                        null, false, 1, found -> {
                    assertThat(found.versions().support()).isEqualTo(Support.UNSUPPORTED);
                    assertThat(found.warning()).isEqualTo("RayVersionUnsupported");
                    assertThat(found.versions().limits()).singleElement().asString().contains("Ray 2.6.3", "2.7.0");
                })),
                row("a GCS answering UNIMPLEMENTED, whatever the spec says", new Case("2.41.0", "rayproject/ray:2.41.0", KubeRayGeneration.FROM_1_6,
                        null, true, 1, found -> {
                    assertThat(found.versions().support()).isEqualTo(Support.UNSUPPORTED);
                    assertThat(found.warning()).isEqualTo("RayVersionUnsupported");
                    assertThat(found.versions().limits()).first().asString().contains("UNIMPLEMENTED");
                })),
                row("Ray 2.9.3: the draft drain numbering, scaled up only", new Case(null, "rayproject/ray:2.9.3", KubeRayGeneration.FROM_1_6,
                        "2.9.3", false, 1, found -> {
                    assertThat(found.versions().support()).isEqualTo(Support.SCALE_UP_ONLY);
                    assertThat(found.versions().limits()).singleElement().asString().contains("IDLE_TERMINATION 0, PREEMPTION 1");
                })),
                row("Ray 2.10.0: scaled down; no node labels before 2.49 is a limit only", new Case(null, null, KubeRayGeneration.FROM_1_6,
                        "2.10.0", false, 1, found -> {
                    assertThat(found.versions().support()).isEqualTo(Support.FULL);
                    assertThat(found.versions().limits()).singleElement().asString().contains("no node labels", "2.49.0");
                    assertThat(found.warning()).isNull();
                })),
                row("pods of a KubeRay before 1.1: left alone, told as KubeRay's", new Case(null, null, KubeRayGeneration.BEFORE_1_1, "2.54.0",
                        false, 1, found -> {
                    assertThat(found.versions().support()).isEqualTo(Support.UNSUPPORTED);
                    assertThat(found.warning()).isEqualTo("KubeRayVersionUnsupported");
                    assertThat(found.versions().limits()).singleElement().asString().contains("RAY_CLOUD_INSTANCE_ID", "1.1.0");
                })),
                row("multi-host pods of a KubeRay before 1.6: their replicas stay", new Case(null, null, KubeRayGeneration.FROM_1_1, "2.54.0",
                        false, 2, found -> {
                    assertThat(found.versions().support()).isEqualTo(Support.FULL);
                    assertThat(found.versions().limits()).singleElement().asString().contains("small-group", "multi-host", "1.6");
                })));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rows")
    void assesses(Case row) {
        RayCluster cluster = RayClusters.walkthrough("default", "rc");
        cluster.getSpec().setRayVersion(row.specVersion());
        cluster.getSpec().getHeadGroupSpec().getTemplate().getSpec().getContainers().get(0).setImage(row.image());
        cluster.getSpec().getWorkerGroupSpecs().get(0).setNumOfHosts(row.hosts());
        Pod head = RayClusters.headPod(cluster, "rc-head");
        head.getSpec().getContainers().get(0).setEnv(switch (row.kubeRay()) {
            case BEFORE_1_1 -> List.of();
            case FROM_1_1 -> NodeEnv.written(true, false);
            case FROM_1_6 -> NodeEnv.written(true, true);
        });
        List<RayPod> pods = List.of(RayPod.of(head, LABEL), RayPod.of(RayClusters.workerPod(cluster, "small-group", "rc-w", "Running"), LABEL));

        row.then().accept(SupportMatrix.assess(cluster, pods, row.gcs(), row.noService()));
    }

    private static Named<Case> row(String name, Case row) {
        return Named.of(name, row);
    }
}
