package dev.rayscale.clients;

import dev.rayscale.kuberay.NodeEnv;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.ray.v1.RayCluster;
import io.ray.v1.rayclusterspec.AuthOptions;
import io.ray.v1.rayclusterspec.HeadGroupSpec;
import dev.rayscale.events.Quoted;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * Where a cluster's GCS listens and how it is spoken to, as its RayCluster says, read in this one place:
 * <ul>
 *   <li>address: {@code <head service>.<namespace>.svc:<port>}, the service {@code headGroupSpec.headService.metadata.name},
 *       else {@code <cluster>-head-svc}; the port {@code headGroupSpec.rayStartParams.port} as KubeRay passes it to
 *       {@code ray start} ({@code GetHeadPort}, fact D55), else the configured default; the annotation
 *       {@code rayscale.dev/gcs-address} overrides both where {@link GcsTrust} allows it;</li>
 *   <li>TLS: the annotation {@code rayscale.dev/gcs-tls} if set, else whether the head's Ray container sets
 *       {@code RAY_USE_TLS} true as Ray reads it ({@code 1} or {@code true}, any case), else the configured default;</li>
 *   <li>token: with KubeRay {@code authOptions.mode: token}, the Secret KubeRay makes, named after the cluster (fact C46);
 *       the Secret {@code authOptions.secretName} names instead only where {@link GcsTrust} allows it.</li>
 * </ul>
 * What the cluster asks and the trust does not allow is refused, and said in {@code refused}. Pure: the same RayCluster,
 * defaults and trust always give the same endpoint.
 *
 * @param tokenSecret the Secret holding the cluster's token, or null if the cluster uses none or names one it may not
 * @param refused what the cluster asked for and was refused, for a Warning Event; empty when nothing was
 */
public record GcsEndpoint(String address, boolean tls, String tokenSecret, List<String> refused) {

    public static final String ADDRESS_ANNOTATION = "rayscale.dev/gcs-address";
    public static final String TLS_ANNOTATION = "rayscale.dev/gcs-tls";

    public GcsEndpoint {
        refused = List.copyOf(refused);
    }

    public GcsEndpoint(String address, boolean tls, String tokenSecret) {
        this(address, tls, tokenSecret, List.of());
    }

    public static GcsEndpoint of(RayCluster cluster, int defaultPort, boolean defaultTls, GcsTrust trust) {
        List<String> refused = new ArrayList<>();
        String namespace = cluster.getMetadata().getNamespace();
        String address = headService(cluster, defaultPort);
        String override = annotation(cluster, ADDRESS_ANNOTATION);
        if (override != null && trust.allowsAddress(namespace)) {
            address = override;
        } else if (override != null) {
            refused.add("the annotation " + ADDRESS_ANNOTATION + "=" + Quoted.of(override) + " is not allowed in namespace " + namespace
                    + " (the Helm value gcs.addressOverrideNamespaces): Rayscale dials the cluster's own head service, " + address);
        }
        String tokenSecret = tokenSecret(cluster);
        String kubeRays = cluster.getMetadata().getName();
        if (tokenSecret != null && !tokenSecret.equals(kubeRays) && !trust.allowsTokenSecret(namespace, tokenSecret)) {
            refused.add("authOptions.secretName names the Secret " + Quoted.of(tokenSecret) + ", not the one KubeRay makes for the "
                    + "cluster (" + kubeRays + "), and the Helm value gcs.tokenSecrets does not list " + namespace + "/"
                    + Quoted.of(tokenSecret) + ": Rayscale reads no token for it, and the GCS will refuse its calls");
            tokenSecret = null;
        }
        return new GcsEndpoint(address, tls(cluster, defaultTls), tokenSecret, refused);
    }

    private static String headService(RayCluster cluster, int defaultPort) {
        HeadGroupSpec head = cluster.getSpec().getHeadGroupSpec();
        String service = cluster.getMetadata().getName() + "-head-svc";
        if (head != null && head.getHeadService() != null && head.getHeadService().getMetadata() != null
                && head.getHeadService().getMetadata().getName() != null) {
            service = head.getHeadService().getMetadata().getName();
        }
        return service + "." + cluster.getMetadata().getNamespace() + ".svc:" + port(head, defaultPort);
    }

    /** {@code rayStartParams.port} when it is a port number, else the default: a value Ray would refuse is not dialled. */
    private static int port(HeadGroupSpec head, int defaultPort) {
        String port = head == null || head.getRayStartParams() == null ? null : head.getRayStartParams().get("port");
        if (port == null) {
            return defaultPort;
        }
        try {
            int number = Integer.parseInt(port.trim().replace("'", "").replace("\"", ""));
            return number > 0 && number < 65536 ? number : defaultPort;
        } catch (NumberFormatException notANumber) {
            return defaultPort;
        }
    }

    private static boolean tls(RayCluster cluster, boolean defaultTls) {
        String override = annotation(cluster, TLS_ANNOTATION);
        if (override != null) {
            return Boolean.parseBoolean(override);
        }
        return defaultTls || headUsesTls(cluster.getSpec().getHeadGroupSpec());
    }

    /** RayConfig reads a boolean as {@code "true"} or {@code "1"}, any case ({@code ConvertValue<bool>}). */
    private static boolean headUsesTls(HeadGroupSpec head) {
        if (head == null || head.getTemplate() == null || head.getTemplate().getSpec() == null) {
            return false;
        }
        List<Container> containers = head.getTemplate().getSpec().getContainers();
        if (containers == null || containers.isEmpty() || containers.get(0).getEnv() == null) {
            return false;
        }
        for (EnvVar variable : containers.get(0).getEnv()) {
            if (NodeEnv.USE_TLS.equals(variable.getName()) && variable.getValue() != null) {
                String value = variable.getValue().trim().toLowerCase(Locale.ROOT);
                return value.equals("1") || value.equals("true");
            }
        }
        return false;
    }

    private static String tokenSecret(RayCluster cluster) {
        AuthOptions auth = cluster.getSpec().getAuthOptions();
        if (auth == null || auth.getMode() == null || !"token".equals(auth.getMode().getValue())) {
            return null;
        }
        return Objects.requireNonNullElse(auth.getSecretName(), cluster.getMetadata().getName());
    }

    private static String annotation(RayCluster cluster, String name) {
        Map<String, String> annotations = cluster.getMetadata().getAnnotations();
        String value = annotations == null ? null : annotations.get(name);
        return value == null || value.isBlank() ? null : value.trim();
    }
}
