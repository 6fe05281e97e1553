package dev.rayscale.clients;

import java.util.Set;

/**
 * What an administrator lets a RayCluster's owner choose of how Rayscale reaches its GCS. A tenant writes its RayCluster,
 * and a shared Rayscale must not dial an address, or send a token, the tenant could not reach or read itself: by default
 * the GCS is the cluster's own head service in its own namespace, and the token the Secret KubeRay makes for the cluster,
 * named after it (fact C46). Anything else is taken only where the Helm values allow it.
 *
 * @param addressNamespaces namespaces whose clusters may name their GCS's address ({@code rayscale.dev/gcs-address});
 *     {@value #EVERY} for all (the local demo, whose GCSs are processes on the machine)
 * @param tokenSecrets Secrets, as {@code namespace/name}, that a cluster may name as its token ({@code authOptions.secretName})
 */
public record GcsTrust(Set<String> addressNamespaces, Set<String> tokenSecrets) {

    public static final String EVERY = "*";

    public GcsTrust {
        addressNamespaces = Set.copyOf(addressNamespaces);
        tokenSecrets = Set.copyOf(tokenSecrets);
    }

    static GcsTrust of(GcsClientConfig config) {
        return new GcsTrust(config.addressOverrideNamespaces().orElse(Set.of()), config.tokenSecrets().orElse(Set.of()));
    }

    boolean allowsAddress(String namespace) {
        return addressNamespaces.contains(EVERY) || addressNamespaces.contains(namespace);
    }

    boolean allowsTokenSecret(String namespace, String name) {
        return tokenSecrets.contains(namespace + "/" + name);
    }
}
