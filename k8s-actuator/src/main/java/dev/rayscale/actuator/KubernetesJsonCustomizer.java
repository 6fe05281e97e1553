package dev.rayscale.actuator;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.rayscale.clients.KubernetesJson;
import io.quarkus.kubernetes.client.KubernetesClientObjectMapperCustomizer;
import jakarta.inject.Singleton;

/** The Kubernetes client reads RayClusters written by a newer KubeRay ({@link KubernetesJson}). */
@Singleton
public class KubernetesJsonCustomizer implements KubernetesClientObjectMapperCustomizer {

    @Override
    public void customize(ObjectMapper mapper) {
        KubernetesJson.tolerateNewerKubeRay(mapper);
    }
}
