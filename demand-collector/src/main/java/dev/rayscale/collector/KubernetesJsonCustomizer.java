package dev.rayscale.collector;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.rayscale.clients.KubernetesJson;
import dev.rayscale.clients.UnknownEnumValues;
import io.quarkus.kubernetes.client.KubernetesClientObjectMapperCustomizer;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

/**
 * The Kubernetes client reads RayClusters written by a newer KubeRay ({@link KubernetesJson}), and remembers the enum
 * values it read as unset for the poller to warn of.
 */
@Singleton
public class KubernetesJsonCustomizer implements KubernetesClientObjectMapperCustomizer {

    private final UnknownEnumValues unknownEnumValues = new UnknownEnumValues();

    @Override
    public void customize(ObjectMapper mapper) {
        KubernetesJson.tolerateNewerKubeRay(mapper, unknownEnumValues);
    }

    @Produces
    @Singleton
    UnknownEnumValues unknownEnumValues() {
        return unknownEnumValues;
    }
}
