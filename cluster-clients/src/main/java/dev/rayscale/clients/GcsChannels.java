package dev.rayscale.clients;

import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.grpc.Channel;
import io.grpc.ChannelCredentials;
import io.grpc.ClientInterceptor;
import io.grpc.ClientInterceptors;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.TlsChannelCredentials;
import io.grpc.stub.MetadataUtils;
import io.grpc.util.AdvancedTlsX509KeyManager;
import io.grpc.util.AdvancedTlsX509TrustManager;
import io.ray.v1.RayCluster;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * One gRPC channel per cluster to its GCS, where and as its RayCluster says ({@link GcsEndpoint}): plaintext, or TLS
 * presenting the configured client certificate (Ray's TLS is mutual, fact D55); with KubeRay's token as
 * {@code authorization: Bearer ...} when the cluster uses one. Channels are non-blocking and share a small executor: a
 * thousand clusters do not need a thousand threads. Every call goes through the interceptor the service gives (its
 * metrics).
 */
public final class GcsChannels implements AutoCloseable {

    static final String TOKEN_KEY = "auth_token";
    /**
     * The largest reply taken from a GCS: at most what Ray's own clients take, {@code max_grpc_message_size} in Ray's
     * {@code src/ray/common/ray_config_def.h} (500 MiB), and at most a quarter of this process's heap, since a tenant's head
     * pod answers and the decoded reply is several times its bytes. Not gRPC's 4 MiB default, which a cluster of a few
     * thousand nodes with a long demand list exceeds (BigClusterTest: several MiB at 5,000 nodes); the services' 96-128
     * MiB heaps take 24-32 MiB. A larger reply fails the call (RESOURCE_EXHAUSTED), counted as a failed read.
     */
    static final int MAX_REPLY_BYTES = maxReplyBytes(Runtime.getRuntime().maxMemory());
    /** How often the TLS files are read again, so that a rotated certificate is taken up. */
    private static final long RELOAD_MINUTES = 1;
    private static final Metadata.Key<String> AUTHORIZATION = Metadata.Key.of("authorization", Metadata.ASCII_STRING_MARSHALLER);

    private record Open(GcsEndpoint endpoint, ManagedChannel channel, Channel intercepted) {
    }

    private final KubernetesClient kubernetes;
    private final GcsClientConfig config;
    private final GcsTrust trust;
    private final ClientInterceptor calls;
    private final ChannelCredentials tls;
    private final Map<String, Open> open = new ConcurrentHashMap<>();
    private final ExecutorService callbacks = Executors.newFixedThreadPool(2, runnable -> daemon(runnable, "gcs-callbacks"));
    private final ScheduledExecutorService reloads = Executors.newSingleThreadScheduledExecutor(runnable -> daemon(runnable, "gcs-tls-reload"));

    /**
     * @param calls sees every call to every GCS (a service's metrics of them)
     * @throws IllegalStateException if TLS files are configured but cannot be read
     */
    public GcsChannels(KubernetesClient kubernetes, GcsClientConfig config, ClientInterceptor calls) {
        this.kubernetes = kubernetes;
        this.config = config;
        this.trust = GcsTrust.of(config);
        this.calls = calls;
        this.tls = tlsCredentials(config);
    }

    static int maxReplyBytes(long heapBytes) {
        return (int) Math.min(500L * 1024 * 1024, heapBytes / 4);
    }

    /** The id channels are kept under: {@code namespace/name}, as events name a cluster ({@code ClusterRef.id()}). */
    public static String id(RayCluster cluster) {
        return cluster.getMetadata().getNamespace() + "/" + cluster.getMetadata().getName();
    }

    /**
     * The channel to the cluster's GCS, opened on first use and opened anew if where or how to reach it changed. The token
     * is read when the channel opens; after a refused call, {@link #release} it so that the next call reads it again.
     *
     * @throws IllegalStateException if the cluster needs a token that cannot be found
     */
    public Channel channel(String clusterId, RayCluster cluster) {
        GcsEndpoint endpoint = endpoint(cluster);
        Open current = open.get(clusterId);
        if (current != null && current.endpoint.equals(endpoint)) {
            return current.intercepted;
        }
        release(clusterId);
        String token = endpoint.tokenSecret() == null ? null : token(cluster, endpoint.tokenSecret());
        ManagedChannel channel = Grpc.newChannelBuilder(endpoint.address(), endpoint.tls() ? tls : InsecureChannelCredentials.create())
                .executor(callbacks).maxInboundMessageSize(MAX_REPLY_BYTES).build();
        Channel intercepted = ClientInterceptors.intercept(channel, token == null ? List.of(calls) : List.of(bearer(token), calls));
        open.put(clusterId, new Open(endpoint, channel, intercepted));
        return intercepted;
    }

    /** Where and how the cluster's GCS is reached. */
    public GcsEndpoint endpoint(RayCluster cluster) {
        return GcsEndpoint.of(cluster, config.port(), config.tls(), trust);
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
        reloads.shutdownNow();
        callbacks.shutdownNow();
        try {
            callbacks.awaitTermination(2, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * TLS as configured: the client certificate and key, and the CA, each read again every minute; without them, TLS
     * checked against the JVM's trusted CAs, presenting no certificate.
     */
    private ChannelCredentials tlsCredentials(GcsClientConfig settings) {
        TlsChannelCredentials.Builder builder = TlsChannelCredentials.newBuilder();
        try {
            if (settings.tlsCertFile().isPresent() != settings.tlsKeyFile().isPresent()) {
                throw new IllegalStateException("the GCS client certificate and its key are configured together or not at all "
                        + "(tls-cert-file, tls-key-file)");
            }
            if (settings.tlsCertFile().isPresent()) {
                AdvancedTlsX509KeyManager identity = new AdvancedTlsX509KeyManager();
                identity.updateIdentityCredentials(new File(settings.tlsCertFile().get()), new File(settings.tlsKeyFile().get()),
                        RELOAD_MINUTES, TimeUnit.MINUTES, reloads);
                builder.keyManager(identity);
            }
            if (settings.tlsCaFile().isPresent()) {
                AdvancedTlsX509TrustManager trust = AdvancedTlsX509TrustManager.newBuilder()
                        .setVerification(AdvancedTlsX509TrustManager.Verification.CERTIFICATE_AND_HOST_NAME_VERIFICATION).build();
                trust.updateTrustCredentials(new File(settings.tlsCaFile().get()), RELOAD_MINUTES, TimeUnit.MINUTES, reloads);
                builder.trustManager(trust);
            }
        } catch (IOException | GeneralSecurityException unreadable) {
            throw new IllegalStateException("cannot read the GCS TLS files (" + settings.tlsCertFile().orElse("-") + ", "
                    + settings.tlsKeyFile().orElse("-") + ", " + settings.tlsCaFile().orElse("-") + "): " + unreadable.getMessage()
                    + " (the key must be PEM PKCS#8, BEGIN PRIVATE KEY)", unreadable);
        }
        return builder.build();
    }

    private String token(RayCluster cluster, String secretName) {
        Secret secret = kubernetes.secrets().inNamespace(cluster.getMetadata().getNamespace()).withName(secretName).get();
        if (secret == null || secret.getData() == null || !secret.getData().containsKey(TOKEN_KEY)) {
            throw new IllegalStateException("authOptions.mode is token but Secret " + secretName + " has no " + TOKEN_KEY);
        }
        return new String(Base64.getDecoder().decode(secret.getData().get(TOKEN_KEY)), StandardCharsets.UTF_8).trim();
    }

    private static ClientInterceptor bearer(String token) {
        Metadata headers = new Metadata();
        headers.put(AUTHORIZATION, "Bearer " + token);
        return MetadataUtils.newAttachHeadersInterceptor(headers);
    }

    private static Thread daemon(Runnable runnable, String name) {
        Thread thread = new Thread(runnable, name);
        thread.setDaemon(true);
        return thread;
    }
}
