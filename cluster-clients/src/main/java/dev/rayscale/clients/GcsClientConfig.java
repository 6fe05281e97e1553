package dev.rayscale.clients;

import io.smallrye.config.WithDefault;
import java.time.Duration;
import java.util.Optional;
import java.util.Set;

/**
 * How a service reaches Ray GCSs: the settings the collector and the actuator share, under each one's {@code gcs} group
 * ({@code rayscale.collector.gcs.*}, {@code rayscale.actuator.gcs.*}). Where each cluster's GCS is, and whether it uses TLS
 * or a token, comes from the cluster ({@link GcsEndpoint}); what Rayscale presents to it comes only from here.
 */
public interface GcsClientConfig {

    /** The GCS port when the head group's {@code rayStartParams.port} does not say (KubeRay's default: 6379). */
    @WithDefault("6379")
    int port();

    /** Every GCS call must answer within this time. */
    @WithDefault("2s")
    Duration deadline();

    /**
     * Use TLS to every GCS, whatever the cluster says. Without it, TLS is used where the cluster runs Ray with TLS (its head
     * container sets {@code RAY_USE_TLS}), or where its annotation {@code rayscale.dev/gcs-tls} says so.
     */
    @WithDefault("false")
    boolean tls();

    /**
     * Mutual TLS, as Ray's TLS is (fact D55): the PEM certificate Rayscale presents to GCSs that run Ray with TLS, signed by a
     * CA their {@code RAY_TLS_CA_CERT} trusts (the Helm chart mounts it from the Secret {@code gcs.tls.secretName}). Read
     * again every minute, so a rotated certificate is taken up without a restart. Unset: TLS without a client certificate,
     * which a Ray GCS refuses.
     */
    Optional<String> tlsCertFile();

    /** The PEM private key (PKCS#8, {@code BEGIN PRIVATE KEY}) of {@link #tlsCertFile()}. */
    Optional<String> tlsKeyFile();

    /** The PEM CA certificates the GCSs' certificates are checked against; unset: the JVM's trusted CAs. */
    Optional<String> tlsCaFile();

    /**
     * Namespaces whose RayClusters may name their GCS's address with {@code rayscale.dev/gcs-address}, {@code *} for all.
     * Elsewhere the annotation is refused with a Warning Event and the cluster's own head service is dialled: a tenant must
     * not aim the shared Rayscale at another tenant's GCS, or at a listener of its own that collects tokens.
     */
    Optional<Set<String>> addressOverrideNamespaces();

    /**
     * Secrets, as {@code namespace/name}, a RayCluster may name as its token in {@code authOptions.secretName}. The Secret
     * KubeRay makes for a cluster (named after it) is always read; another only when listed here, or a tenant could have
     * Rayscale send another cluster's token.
     */
    Optional<Set<String>> tokenSecrets();
}
