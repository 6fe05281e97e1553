package dev.rayscale.clients;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * How Rayscale reads Kubernetes objects. Its RayCluster model is generated from one KubeRay CRD, and a newer KubeRay may
 * add fields and enum values; by the client's own rules a single RayCluster that uses one fails to read, and with it the
 * collector's whole list of RayClusters: every cluster of the fleet. Read this way, a field the model does not know is
 * left out and an enum value it does not know reads as absent (its default). Rayscale writes RayClusters only with JSON
 * Patches of the fields it owns, never a whole object read this way, so nothing left out is lost.
 */
public final class KubernetesJson {

    private KubernetesJson() {
    }

    /** {@code mapper}, made to read what a newer KubeRay writes. */
    public static ObjectMapper tolerateNewerKubeRay(ObjectMapper mapper) {
        return mapper.disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES).enable(DeserializationFeature.READ_UNKNOWN_ENUM_VALUES_AS_NULL);
    }

    /** As {@link #tolerateNewerKubeRay(ObjectMapper)}, each unknown enum value also remembered in {@code unknown}. */
    public static ObjectMapper tolerateNewerKubeRay(ObjectMapper mapper, UnknownEnumValues unknown) {
        return tolerateNewerKubeRay(mapper).disable(DeserializationFeature.READ_UNKNOWN_ENUM_VALUES_AS_NULL).addHandler(unknown);
    }
}
