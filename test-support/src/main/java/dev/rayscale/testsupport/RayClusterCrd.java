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
        register(server.getClient());
    }

    /** Registers the CRD through {@code client}: for a mock server a test starts itself. */
    public static void register(KubernetesClient client) {
        client.apiextensions().v1().customResourceDefinitions().resource(Crds.rayClusters()).create();
    }
}
