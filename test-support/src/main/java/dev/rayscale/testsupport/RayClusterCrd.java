package dev.rayscale.testsupport;

import dev.rayscale.kuberay.Crds;
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
        server.getClient().apiextensions().v1().customResourceDefinitions().resource(Crds.rayClusters()).create();
    }
}
