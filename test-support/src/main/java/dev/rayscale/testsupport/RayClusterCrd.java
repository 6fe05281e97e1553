package dev.rayscale.testsupport;

import dev.rayscale.kuberay.Crds;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.quarkus.test.kubernetes.client.KubernetesServer;
import java.util.function.Consumer;

/**
 * Registers KubeRay's RayCluster CRD with the Kubernetes mock server before the application starts,
 * so that RayClusters behave as on a real cluster. Use as
 * {@code @WithKubernetesTestServer(crud = true, setup = RayClusterCrd.class)}.
 */
public class RayClusterCrd implements Consumer<KubernetesServer> {

    @Override
    public void accept(KubernetesServer server) {
        // As a test's own setup: the CRD is installed by whoever installs KubeRay, not by the service (KubernetesCalls).
        try (KubernetesClient setup = KubernetesCalls.setupClient(server.getClient())) {
            register(setup);
        }
    }

    /** Registers the CRD through {@code client}: for a mock server a test starts itself. */
    public static void register(KubernetesClient client) {
        client.apiextensions().v1().customResourceDefinitions().resource(Crds.rayClusters()).create();
    }
}
