package dev.rayscale.clients;

import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.grpc.Channel;
import io.grpc.ClientInterceptor;
import io.grpc.ClientInterceptors;
import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import io.grpc.Metadata;
import io.grpc.stub.MetadataUtils;
import io.ray.v1.RayCluster;
import io.ray.v1.rayclusterspec.AuthOptions;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * One gRPC channel per cluster to its GCS, at {@code <head-svc>.<namespace>.svc:<port>} (the head
 * service is {@code headGroupSpec.headService.metadata.name}, else {@code <cluster>-head-svc}), or at
 * the annotation {@code rayscale.dev/gcs-address}. With KubeRay {@code authOptions.mode: token} the
 * cluster's token (Secret {@code authOptions.secretName}, else the cluster's name; key
 * {@code auth_token}) is sent as {@code authorization: Bearer ...}. Channels are non-blocking and
 * share a small executor: a thousand clusters do not need a thousand threads. Every call goes through the interceptor
 * the service gives (its metrics).
 */
public final class GcsChannels implements AutoCloseable {

    public static final String ADDRESS_ANNOTATION = "rayscale.dev/gcs-address";
    public static final String TLS_ANNOTATION = "rayscale.dev/gcs-tls";
    static final String TOKEN_KEY = "auth_token";
    /**
     * The largest reply taken from a GCS: what Ray's own clients take, {@code max_grpc_message_size} in Ray's
     * {@code src/ray/common/ray_config_def.h} (500 MiB), not gRPC's 4 MiB default, which a cluster of a few thousand nodes
     * with a long demand list exceeds (BigClusterTest).
     */
    static final int MAX_REPLY_BYTES = 500 * 1024 * 1024;
    private static final Metadata.Key<String> AUTHORIZATION = Metadata.Key.of("authorization", Metadata.ASCII_STRING_MARSHALLER);

    private record Open(String address, boolean tls, ManagedChannel channel, Channel intercepted) {
    }

    private final KubernetesClient kubernetes;
    private final int defaultPort;
    private final boolean defaultTls;
    private final ClientInterceptor calls;
    private final Map<String, Open> open = new ConcurrentHashMap<>();
    private final ExecutorService callbacks = Executors.newFixedThreadPool(2, runnable -> {
        Thread thread = new Thread(runnable, "gcs-callbacks");
        thread.setDaemon(true);
        return thread;
    });

    /** @param calls sees every call to every GCS (a service's metrics of them) */
    public GcsChannels(KubernetesClient kubernetes, int defaultPort, boolean defaultTls, ClientInterceptor calls) {
        this.kubernetes = kubernetes;
        this.defaultPort = defaultPort;
        this.defaultTls = defaultTls;
        this.calls = calls;
    }

    /** The id channels are kept under: {@code namespace/name}, as events name a cluster ({@code ClusterRef.id()}). */
    public static String id(RayCluster cluster) {
        return cluster.getMetadata().getNamespace() + "/" + cluster.getMetadata().getName();
    }

    /**
     * The channel to the cluster's GCS, opened on first use and reopened if its address or TLS setting
     * changed. The token is read when the channel opens; after a refused call, {@link #release} it so
     * that the next call reads the token again.
     *
     * @throws IllegalStateException if the cluster needs a token that cannot be found
     */
    public Channel channel(String clusterId, RayCluster cluster) {
        String address = address(cluster);
        boolean tls = tls(cluster);
        Open current = open.get(clusterId);
        if (current != null && current.address.equals(address) && current.tls == tls) {
            return current.intercepted;
        }
        release(clusterId);
        String token = token(cluster);
        ManagedChannelBuilder<?> builder = ManagedChannelBuilder.forTarget(address).executor(callbacks)
                .maxInboundMessageSize(MAX_REPLY_BYTES);
        ManagedChannel channel = (tls ? builder.useTransportSecurity() : builder.usePlaintext()).build();
        Channel intercepted = ClientInterceptors.intercept(channel, token == null ? List.of(calls) : List.of(bearer(token), calls));
        open.put(clusterId, new Open(address, tls, channel, intercepted));
        return intercepted;
    }

    /** Where the cluster's GCS listens. */
    public String address(RayCluster cluster) {
        String override = annotation(cluster, ADDRESS_ANNOTATION);
        if (override != null) {
            return override;
        }
        String service = cluster.getMetadata().getName() + "-head-svc";
        var head = cluster.getSpec().getHeadGroupSpec();
        if (head != null && head.getHeadService() != null && head.getHeadService().getMetadata() != null
                && head.getHeadService().getMetadata().getName() != null) {
            service = head.getHeadService().getMetadata().getName();
        }
        return service + "." + cluster.getMetadata().getNamespace() + ".svc:" + defaultPort;
    }

    public void release(String clusterId) {
        Open closed = open.remove(clusterId);
        if (closed != null) {
            closed.channel.shutdownNow();
        }
    }

    @Override
    public void close() {
        open.keySet().forEach(this::release);
        callbacks.shutdownNow();
        try {
            callbacks.awaitTermination(2, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private boolean tls(RayCluster cluster) {
        String override = annotation(cluster, TLS_ANNOTATION);
        return override != null ? Boolean.parseBoolean(override) : defaultTls;
    }

    private String token(RayCluster cluster) {
        AuthOptions auth = cluster.getSpec().getAuthOptions();
        if (auth == null || auth.getMode() == null || !"token".equals(auth.getMode().getValue())) {
            return null;
        }
        String secretName = auth.getSecretName() != null ? auth.getSecretName() : cluster.getMetadata().getName();
        Secret secret = kubernetes.secrets().inNamespace(cluster.getMetadata().getNamespace()).withName(secretName).get();
        if (secret == null || secret.getData() == null || !secret.getData().containsKey(TOKEN_KEY)) {
            throw new IllegalStateException("authOptions.mode is token but Secret " + secretName + " has no " + TOKEN_KEY);
        }
        return new String(Base64.getDecoder().decode(secret.getData().get(TOKEN_KEY)), StandardCharsets.UTF_8).trim();
    }

    private static String annotation(RayCluster cluster, String name) {
        Map<String, String> annotations = cluster.getMetadata().getAnnotations();
        String value = annotations == null ? null : annotations.get(name);
        return value == null || value.isBlank() ? null : value.trim();
    }

    private static ClientInterceptor bearer(String token) {
        Metadata headers = new Metadata();
        headers.put(AUTHORIZATION, "Bearer " + token);
        return MetadataUtils.newAttachHeadersInterceptor(headers);
    }
}
