package dev.rayscale.kuberay;

import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;

/** KubeRay's RayCluster CRD, as shipped in this jar (for registering it with a mock or test API server). */
public final class Crds {

    public static final String RAYCLUSTERS = "kuberay/ray.io_rayclusters.yaml";

    private Crds() {
    }

    public static CustomResourceDefinition rayClusters() {
        try (InputStream in = Crds.class.getClassLoader().getResourceAsStream(RAYCLUSTERS)) {
            if (in == null) {
                throw new IllegalStateException(RAYCLUSTERS + " is missing from the classpath");
            }
            return Serialization.unmarshal(in, CustomResourceDefinition.class);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
