package dev.rayscale.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import org.junit.jupiter.api.Test;

/** The default rendering applied to an API server (fabric8's mock, CRUD), as `helm install` would send it. */
@EnableKubernetesMockClient(crud = true)
class ChartInstallTest {

    static KubernetesClient client;

    @Test
    void theDefaultRenderingIsAcceptedAndReadsBackAsRendered() {
        Chart.Rendering rendering = Chart.render(null);
        for (HasMetadata object : rendering.objects()) {
            client.resource(object).create();
        }
        String namespace = Chart.NAMESPACE;
        assertThat(client.apps().deployments().inNamespace(namespace).list().getItems()).extracting(Chart.Rendering::component)
                .containsExactlyInAnyOrder("scaling-planner", "k8s-actuator");
        assertThat(client.apps().statefulSets().inNamespace(namespace).list().getItems()).singleElement()
                .satisfies(collector -> assertThat(collector.getSpec().getServiceName()).isEqualTo(Chart.RELEASE + "-demand-collector"));
        assertThat(client.services().inNamespace(namespace).list().getItems()).hasSize(3);
        assertThat(client.serviceAccounts().inNamespace(namespace).list().getItems()).hasSize(3);
        assertThat(client.rbac().clusterRoles().list().getItems()).hasSize(2);
        assertThat(client.rbac().clusterRoleBindings().list().getItems()).hasSize(2);
        assertThat(client.policy().v1().podDisruptionBudget().inNamespace(namespace).list().getItems()).hasSize(3);
        assertThat(client.network().v1().networkPolicies().inNamespace(namespace).list().getItems()).hasSize(3);
        assertThat(rendering.objects()).allSatisfy(object -> assertThat(client.resource(object).get()).as(object.getFullResourceName()).isNotNull());
    }
}
