package dev.rayscale.collector;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.rayscale.clients.GcsChannels;
import dev.rayscale.clients.GcsClientConfig;
import dev.rayscale.clients.GcsTrust;
import dev.rayscale.clients.GcsEndpoint;
import dev.rayscale.gcs.proto.AutoscalerStateServiceGrpc;
import dev.rayscale.gcs.proto.GetClusterResourceStateReply;
import dev.rayscale.gcs.proto.GetClusterResourceStateRequest;
import dev.rayscale.kuberay.NodeEnv;
import dev.rayscale.sim.FakeGcs;
import dev.rayscale.sim.GcsServer;
import dev.rayscale.sim.GcsStates;
import dev.rayscale.testsupport.RayClusters;
import dev.rayscale.testsupport.TestCertificates;
import io.fabric8.kubernetes.api.model.EnvVarBuilder;
import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.ClientCall;
import io.grpc.ClientInterceptor;
import io.grpc.MethodDescriptor;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.ray.v1.RayCluster;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Mutual TLS to a GCS, as Ray's is (fact D55: with RAY_USE_TLS=1 the GCS requires and verifies a client certificate,
 * grpc_server.cc): against the simulator's GCS serving TLS with certificates made for the test, a client presenting the
 * configured certificate is answered; a plaintext client, a TLS client with no certificate, and one that trusts another CA
 * are all refused.
 */
class GcsTlsTest {

    @TempDir
    Path folder;

    private TestCertificates certificates;
    private FakeGcs gcs;

    @BeforeEach
    void start() {
        certificates = TestCertificates.generate(folder);
        gcs = FakeGcs.start(GcsServer.mutualTls(certificates.serverCertificate().toFile(), certificates.serverKey().toFile(),
                certificates.ca().toFile())).serve(GcsStates.state(3).build());
    }

    @AfterEach
    void stop() {
        gcs.close();
    }

    @Test
    void aClusterRunningRayWithTlsIsReadWithTheConfiguredClientCertificate() {
        RayCluster cluster = clusterWithTls();
        try (GcsChannels channels = channels(certificates.clientCertificate(), certificates.clientKey(), certificates.ca())) {
            assertThat(channels.endpoint(cluster).tls()).as("the head's RAY_USE_TLS").isTrue();
            assertThat(read(channels, cluster).getClusterResourceState().getClusterSessionName()).isEqualTo("session_test");
        }
    }

    @Test
    void aPlaintextClientIsRefused() {
        RayCluster cluster = clusterWithTls();
        cluster.getMetadata().getAnnotations().put(GcsEndpoint.TLS_ANNOTATION, "false");
        try (GcsChannels channels = channels(certificates.clientCertificate(), certificates.clientKey(), certificates.ca())) {
            assertThat(refusal(channels, cluster)).isEqualTo(Status.Code.UNAVAILABLE);
        }
    }

    @Test
    void aTlsClientWithoutACertificateIsRefused() {
        try (GcsChannels channels = channels(null, null, certificates.ca())) {
            assertThat(refusal(channels, clusterWithTls())).isEqualTo(Status.Code.UNAVAILABLE);
        }
    }

    @Test
    void aGcsWhoseCertificateAnotherCaSignedIsNotTrusted() {
        try (GcsChannels channels = channels(certificates.clientCertificate(), certificates.clientKey(), certificates.otherCa())) {
            assertThat(refusal(channels, clusterWithTls())).isEqualTo(Status.Code.UNAVAILABLE);
        }
    }

    private RayCluster clusterWithTls() {
        RayCluster cluster = RayClusters.walkthrough("default", "secured");
        cluster.getMetadata().getAnnotations().put(GcsEndpoint.ADDRESS_ANNOTATION, gcs.address());
        cluster.getSpec().getHeadGroupSpec().getTemplate().getSpec().getContainers().get(0)
                .setEnv(List.of(new EnvVarBuilder().withName(NodeEnv.USE_TLS).withValue("1").build()));
        return cluster;
    }

    private static Status.Code refusal(GcsChannels channels, RayCluster cluster) {
        return catchThrowableOfType(StatusRuntimeException.class, () -> read(channels, cluster)).getStatus().getCode();
    }

    private static GetClusterResourceStateReply read(GcsChannels channels, RayCluster cluster) {
        return AutoscalerStateServiceGrpc.newBlockingStub(channels.channel("default/secured", cluster))
                .withDeadlineAfter(5, TimeUnit.SECONDS).getClusterResourceState(GetClusterResourceStateRequest.getDefaultInstance());
    }

    private static GcsChannels channels(Path certificate, Path key, Path ca) {
        GcsClientConfig config = new GcsClientConfig() {
            @Override
            public int port() {
                return 6379;
            }

            @Override
            public Duration deadline() {
                return Duration.ofSeconds(5);
            }

            @Override
            public boolean tls() {
                return false;
            }

            @Override
            public Optional<String> tlsCertFile() {
                return Optional.ofNullable(certificate).map(Path::toString);
            }

            @Override
            public Optional<String> tlsKeyFile() {
                return Optional.ofNullable(key).map(Path::toString);
            }

            @Override
            public Optional<String> tlsCaFile() {
                return Optional.ofNullable(ca).map(Path::toString);
            }

            @Override
            public Optional<Set<String>> addressOverrideNamespaces() {
                return Optional.of(Set.of(GcsTrust.EVERY));
            }

            @Override
            public Optional<Set<String>> tokenSecrets() {
                return Optional.empty();
            }
        };
        return new GcsChannels(null, config, NOTHING);
    }

    private static final ClientInterceptor NOTHING = new ClientInterceptor() {
        @Override
        public <Q, R> ClientCall<Q, R> interceptCall(MethodDescriptor<Q, R> method, CallOptions options, Channel next) {
            return next.newCall(method, options);
        }
    };
}
