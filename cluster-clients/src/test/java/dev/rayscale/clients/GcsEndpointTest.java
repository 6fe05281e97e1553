package dev.rayscale.clients;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rayscale.kuberay.NodeEnv;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.PodTemplateSpecBuilder;
import io.ray.v1.RayCluster;
import io.ray.v1.RayClusterSpec;
import io.ray.v1.rayclusterspec.AuthOptions;
import io.ray.v1.rayclusterspec.HeadGroupSpec;
import io.ray.v1.rayclusterspec.headgroupspec.HeadService;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Where a cluster's GCS listens and how it is spoken to, as its RayCluster says (facts C46, D55). */
class GcsEndpointTest {

    private static final GcsTrust TRUSTING_NONE = new GcsTrust(Set.of(), Set.of());

    @Test
    void theHeadServiceOfTheClusterOnKubeRaysDefaultPort() {
        assertThat(GcsEndpoint.of(cluster(Map.of()), 6379, false, TRUSTING_NONE)).isEqualTo(new GcsEndpoint("ml-head-svc.team-a.svc:6379", false, null));
    }

    /** KubeRay passes rayStartParams.port to ray start (GetHeadPort), so the GCS listens there. */
    @Test
    void thePortTheHeadWasStartedWith() {
        assertThat(GcsEndpoint.of(cluster(Map.of("port", "6380")), 6379, false, TRUSTING_NONE).address()).isEqualTo("ml-head-svc.team-a.svc:6380");
        assertThat(GcsEndpoint.of(cluster(Map.of("port", "'6381'")), 6379, false, TRUSTING_NONE).address()).as("quoted for the shell")
                .isEqualTo("ml-head-svc.team-a.svc:6381");
        assertThat(GcsEndpoint.of(cluster(Map.of("port", "not-a-port")), 6379, false, TRUSTING_NONE).address()).isEqualTo("ml-head-svc.team-a.svc:6379");
        assertThat(GcsEndpoint.of(cluster(Map.of("port", "70000")), 6379, false, TRUSTING_NONE).address()).isEqualTo("ml-head-svc.team-a.svc:6379");
    }

    @Test
    void aNamedHeadServiceAndTheAddressAnnotation() {
        RayCluster named = cluster(Map.of("port", "6380"));
        HeadService service = new HeadService();
        service.setMetadata(new io.ray.v1.rayclusterspec.headgroupspec.headservice.Metadata());
        service.getMetadata().setName("gcs");
        named.getSpec().getHeadGroupSpec().setHeadService(service);
        assertThat(GcsEndpoint.of(named, 6379, false, TRUSTING_NONE).address()).isEqualTo("gcs.team-a.svc:6380");

        named.getMetadata().getAnnotations().put(GcsEndpoint.ADDRESS_ANNOTATION, " 10.0.0.7:7000 ");
        assertThat(GcsEndpoint.of(named, 6379, false, new GcsTrust(Set.of("team-a"), Set.of())).address()).isEqualTo("10.0.0.7:7000");
        assertThat(GcsEndpoint.of(named, 6379, false, new GcsTrust(Set.of(GcsTrust.EVERY), Set.of())).address()).isEqualTo("10.0.0.7:7000");
    }

    /** A tenant must not aim the shared Rayscale at another tenant's GCS, or at a listener that collects tokens. */
    @Test
    void theAddressAnnotationOnlyWhereTheAdministratorAllowsIt() {
        RayCluster aiming = cluster(Map.of());
        aiming.getMetadata().getAnnotations().put(GcsEndpoint.ADDRESS_ANNOTATION, "other-head-svc.team-b.svc:6379");

        GcsEndpoint endpoint = GcsEndpoint.of(aiming, 6379, false, new GcsTrust(Set.of("team-c"), Set.of()));

        assertThat(endpoint.address()).isEqualTo("ml-head-svc.team-a.svc:6379");
        assertThat(endpoint.refused()).singleElement().asString().contains("'other-head-svc.team-b.svc:6379' is not allowed in "
                + "namespace team-a").contains("gcs.addressOverrideNamespaces");
    }

    /** Ray's TLS is switched on by RAY_USE_TLS, read as RayConfig reads a boolean ("1" or "true", any case). */
    @Test
    void tlsWhereTheHeadRunsRayWithTls() {
        RayCluster secured = cluster(Map.of());
        secured.getSpec().getHeadGroupSpec().setTemplate(new PodTemplateSpecBuilder().withNewSpec().addNewContainer().withName("ray-head")
                .addNewEnv().withName(NodeEnv.USE_TLS).withValue("True").endEnv().endContainer().endSpec().build());
        assertThat(GcsEndpoint.of(secured, 6379, false, TRUSTING_NONE).tls()).isTrue();
        assertThat(GcsEndpoint.of(cluster(Map.of()), 6379, false, TRUSTING_NONE).tls()).isFalse();
        assertThat(GcsEndpoint.of(cluster(Map.of()), 6379, true, TRUSTING_NONE).tls()).as("the service's default").isTrue();

        secured.getMetadata().getAnnotations().put(GcsEndpoint.TLS_ANNOTATION, "false");
        assertThat(GcsEndpoint.of(secured, 6379, false, TRUSTING_NONE).tls()).as("the annotation decides when set").isFalse();
    }

    @Test
    void theTokenSecretOfKubeRaysAuthOptions() {
        RayCluster token = cluster(Map.of());
        AuthOptions auth = new AuthOptions();
        auth.setMode(AuthOptions.Mode.TOKEN);
        token.getSpec().setAuthOptions(auth);
        assertThat(GcsEndpoint.of(token, 6379, false, TRUSTING_NONE).tokenSecret()).as("KubeRay's, named after the cluster").isEqualTo("ml");
        auth.setSecretName("ml");
        assertThat(GcsEndpoint.of(token, 6379, false, TRUSTING_NONE).tokenSecret()).isEqualTo("ml");
        auth.setSecretName("ml-token");
        assertThat(GcsEndpoint.of(token, 6379, false, new GcsTrust(Set.of(), Set.of("team-a/ml-token"))).tokenSecret()).isEqualTo("ml-token");
    }

    /** Naming another cluster's Secret would have Rayscale send that cluster's token: refused unless allowed. */
    @Test
    void aSecretTheClusterNamesIsReadOnlyWhereTheAdministratorAllowsIt() {
        RayCluster token = cluster(Map.of());
        AuthOptions auth = new AuthOptions();
        auth.setMode(AuthOptions.Mode.TOKEN);
        auth.setSecretName("other-cluster");
        token.getSpec().setAuthOptions(auth);

        GcsEndpoint endpoint = GcsEndpoint.of(token, 6379, false, new GcsTrust(Set.of(GcsTrust.EVERY), Set.of("team-b/other-cluster")));

        assertThat(endpoint.tokenSecret()).isNull();
        assertThat(endpoint.refused()).singleElement().asString().contains("'other-cluster'").contains("gcs.tokenSecrets");
    }

    private static RayCluster cluster(Map<String, String> headParams) {
        RayCluster cluster = new RayCluster();
        cluster.setMetadata(new ObjectMetaBuilder().withNamespace("team-a").withName("ml").withAnnotations(new HashMap<>()).build());
        RayClusterSpec spec = new RayClusterSpec();
        HeadGroupSpec head = new HeadGroupSpec();
        head.setRayStartParams(new HashMap<>(headParams));
        spec.setHeadGroupSpec(head);
        cluster.setSpec(spec);
        return cluster;
    }
}
