package dev.rayscale.clients;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.DefaultKubernetesResourceList;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.ray.v1.RayCluster;
import io.ray.v1.rayclusterspec.AutoscalerOptions;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class UnknownEnumValuesTest {

    private final UnknownEnumValues unknown = new UnknownEnumValues();
    /** Fabric8's own serialisation, as the Kubernetes client reads with it, on a mapper made as the collector makes it. */
    private final KubernetesSerialization json = new KubernetesSerialization(KubernetesJson.tolerateNewerKubeRay(new ObjectMapper(), unknown), true);

    @Test
    void aNewerKubeRaysEnumValueReadsAsUnsetAndIsRememberedWithItsClusterAndPath() {
        List<RayCluster> clusters = json.unmarshal(new ByteArrayInputStream("""
                {"apiVersion": "v1", "kind": "List", "items": [
                  %s,
                  %s
                ]}""".formatted(cluster("newer", "7", "Turbo", "Maybe"), cluster("known", "8", "Aggressive", "False")).getBytes(StandardCharsets.UTF_8)),
                new TypeReference<DefaultKubernetesResourceList<RayCluster>>() {
                }).getItems();

        RayCluster newer = clusters.get(0);
        assertThat(newer.getSpec().getAutoscalerOptions().getUpscalingMode()).isNull();
        assertThat(newer.getStatus().getConditions().get(1).getStatus()).isNull();
        assertThat(unknown.in(newer)).containsExactly(new UnknownEnumValues.Unknown("spec.autoscalerOptions.upscalingMode", "Turbo"),
                new UnknownEnumValues.Unknown("status.conditions[1].status", "Maybe"));
        assertThat(unknown.in(newer).get(1)).hasToString("status.conditions[1].status='Maybe'");

        RayCluster known = clusters.get(1);
        assertThat(known.getSpec().getAutoscalerOptions().getUpscalingMode()).isEqualTo(AutoscalerOptions.UpscalingMode.AGGRESSIVE);
        assertThat(unknown.in(known)).isEmpty();
    }

    @Test
    void anObjectEditedToKnownValuesIsCleanAtItsNewResourceVersion() {
        RayCluster before = json.unmarshal(cluster("edited", "7", "Turbo", "True"), RayCluster.class);
        assertThat(unknown.in(before)).hasSize(1);

        RayCluster after = json.unmarshal(cluster("edited", "9", "Conservative", "True"), RayCluster.class);
        assertThat(unknown.in(after)).isEmpty();
        assertThat(unknown.in(before)).as("the record holds for its resourceVersion only").hasSize(1);
    }

    @Test
    void aValueReadTwiceAtOneResourceVersionIsRememberedOnce() {
        json.unmarshal(cluster("twice", "7", "Turbo", "True"), RayCluster.class);
        RayCluster again = json.unmarshal(cluster("twice", "7", "Turbo", "True"), RayCluster.class);

        assertThat(unknown.in(again)).containsExactly(new UnknownEnumValues.Unknown("spec.autoscalerOptions.upscalingMode", "Turbo"));
    }

    @Test
    void aDeletedObjectsRecordIsForgotten() {
        RayCluster deleted = json.unmarshal(cluster("deleted", "7", "Turbo", "True"), RayCluster.class);
        RayCluster beside = json.unmarshal(cluster("beside", "8", "Turbo", "True"), RayCluster.class);

        unknown.forget(deleted);

        assertThat(unknown.in(deleted)).isEmpty();
        assertThat(unknown.in(beside)).hasSize(1);
    }

    private static String cluster(String name, String resourceVersion, String upscalingMode, String readyStatus) {
        return """
                {"apiVersion": "ray.io/v1", "kind": "RayCluster",
                 "metadata": {"namespace": "ml", "name": "%s", "resourceVersion": "%s"},
                 "spec": {"autoscalerOptions": {"upscalingMode": "%s", "idleTimeoutSeconds": 60}},
                 "status": {"conditions": [{"type": "HeadPodReady", "status": "True"}, {"type": "RayClusterProvisioned", "status": "%s"}]}}
                """.formatted(name, resourceVersion, upscalingMode, readyStatus);
    }
}
