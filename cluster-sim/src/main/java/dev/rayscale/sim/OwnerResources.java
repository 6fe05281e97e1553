package dev.rayscale.sim;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.util.HashMap;
import java.util.Map;

/** KubeRay's custom resources that own a RayCluster (RayService, RayJob), as their owners create them. */
final class OwnerResources {

    private OwnerResources() {
    }

    /** Creates the {@code kind} named {@code name}, with {@code annotations} (where its owner puts them) and {@code spec}. */
    static GenericKubernetesResource create(KubernetesClient client, ResourceDefinitionContext kind, String namespace, String name,
            Map<String, String> annotations, Map<String, Object> spec) {
        GenericKubernetesResource resource = new GenericKubernetesResource();
        resource.setApiVersion(kind.getGroup() + "/" + kind.getVersion());
        resource.setKind(kind.getKind());
        resource.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace(namespace).withAnnotations(new HashMap<>(annotations)).build());
        resource.setAdditionalProperty("spec", spec);
        return client.genericKubernetesResources(kind).inNamespace(namespace).resource(resource).create();
    }

    /** The controller reference {@code ctrl.SetControllerReference} writes into what {@code owner} builds. */
    static OwnerReference controllerOf(GenericKubernetesResource owner) {
        return new OwnerReferenceBuilder().withApiVersion(owner.getApiVersion()).withKind(owner.getKind()).withName(owner.getMetadata().getName())
                .withUid(owner.getMetadata().getUid()).withController(true).withBlockOwnerDeletion(true).build();
    }
}
