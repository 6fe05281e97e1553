package dev.rayscale.sim;

import dev.rayscale.gcs.proto.AutoscalerStateServiceGrpc;
import dev.rayscale.gcs.proto.DrainNodeReply;
import dev.rayscale.gcs.proto.DrainNodeRequest;
import dev.rayscale.gcs.proto.GetClusterResourceStateReply;
import dev.rayscale.gcs.proto.GetClusterResourceStateRequest;
import dev.rayscale.gcs.proto.GetClusterStatusReply;
import dev.rayscale.gcs.proto.GetClusterStatusRequest;
import dev.rayscale.gcs.proto.GcsStatus;
import dev.rayscale.gcs.proto.InternalKVGcsServiceGrpc;
import dev.rayscale.gcs.proto.InternalKVGetReply;
import dev.rayscale.gcs.proto.InternalKVGetRequest;
import dev.rayscale.gcs.proto.InternalKVPutReply;
import dev.rayscale.gcs.proto.InternalKVPutRequest;
import dev.rayscale.gcs.RayKv;
import dev.rayscale.gcs.proto.ReportAutoscalingStateReply;
import dev.rayscale.gcs.proto.ReportAutoscalingStateRequest;
import io.grpc.Context;
import io.grpc.Contexts;
import io.grpc.Grpc;
import io.grpc.InsecureServerCredentials;
import io.grpc.Metadata;
import io.grpc.Server;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.ServerCredentials;
import io.grpc.ServerInterceptors;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.TlsServerCredentials;
import io.grpc.stub.StreamObserver;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.DoubleSupplier;
import java.util.function.Supplier;

/**
 * A real gRPC server on a local port speaking Ray's {@code ray.rpc.autoscaler.AutoscalerStateService} (unless the backend's
 * Ray predates it: its calls then answer UNIMPLEMENTED) and {@code ray.rpc.InternalKVGcsService}, answering from a
 * {@link GcsBackend}. It records the {@code authorization} header of each call and can
 * require KubeRay's token (fact C46: {@code authorization: Bearer <token>}).
 */
public final class GcsServer implements AutoCloseable {

    private static final Metadata.Key<String> AUTHORIZATION = Metadata.Key.of("authorization", Metadata.ASCII_STRING_MARSHALLER);
    private static final Context.Key<String> CALLER_AUTHORIZATION = Context.key("authorization");

    private final Server server;
    private final GcsBackend backend;
    private final AtomicReference<String> requiredToken = new AtomicReference<>();
    private final List<String> authorizations = new CopyOnWriteArrayList<>();
    private final GcsFaults faults;

    public GcsServer(GcsBackend backend) {
        this(backend, () -> System.nanoTime() / 1e9, InsecureServerCredentials.create());
    }

    /** @param clock the simulated clock, in seconds, on which injected faults are timed */
    public GcsServer(GcsBackend backend, DoubleSupplier clock) {
        this(backend, clock, InsecureServerCredentials.create());
    }

    /**
     * @param credentials plaintext, or TLS; Ray's GCS with {@code RAY_USE_TLS=1} requires and verifies a client certificate
     *     ({@code GRPC_SSL_REQUEST_AND_REQUIRE_CLIENT_CERTIFICATE_AND_VERIFY}, {@code grpc_server.cc}; fact D55): {@link #mutualTls}
     */
    public GcsServer(GcsBackend backend, DoubleSupplier clock, ServerCredentials credentials) {
        this.backend = backend;
        this.faults = new GcsFaults(clock);
        try {
            var builder = Grpc.newServerBuilderForPort(0, credentials)
                    .addService(ServerInterceptors.intercept(new KvService(), new AuthorizationCapture()));
            if (backend.servesAutoscalerState()) {
                builder.addService(ServerInterceptors.intercept(new Service(), new AuthorizationCapture()));
            }
            server = builder.build().start();
        } catch (IOException e) {
            throw new UncheckedIOException("could not start the GCS server", e);
        }
    }

    /** TLS as a Ray GCS with {@code RAY_USE_TLS=1} serves it: its certificate and key, and the CA a client's certificate must be signed by. */
    public static ServerCredentials mutualTls(File certificate, File key, File clientCa) {
        try {
            return TlsServerCredentials.newBuilder().keyManager(certificate, key).trustManager(clientCa)
                    .clientAuth(TlsServerCredentials.ClientAuth.REQUIRE).build();
        } catch (IOException unreadable) {
            throw new UncheckedIOException("cannot read the GCS's TLS files", unreadable);
        }
    }

    /** {@code 127.0.0.1:<port>}, for the {@code rayscale.dev/gcs-address} annotation. */
    public String address() {
        return "127.0.0.1:" + server.getPort();
    }

    /** Refuses calls that do not carry {@code authorization: Bearer <token>}. */
    public void requireToken(String token) {
        requiredToken.set(token);
    }

    public List<String> authorizations() {
        return List.copyOf(authorizations);
    }

    /** Faults between the clients and this GCS: calls that fail or hang for a while, a hook between a drain and its answer. */
    public GcsFaults faults() {
        return faults;
    }

    @Override
    public void close() {
        server.shutdownNow();
    }

    private <T> void answer(StreamObserver<T> observer, Supplier<T> reply) {
        if (faults.intercept(observer)) {
            return;
        }
        String token = requiredToken.get();
        if (token != null && !("Bearer " + token).equals(CALLER_AUTHORIZATION.get())) {
            observer.onError(Status.UNAUTHENTICATED.withDescription("missing or wrong token").asRuntimeException());
            return;
        }
        T value;
        try {
            value = reply.get();
        } catch (StatusRuntimeException failed) {
            observer.onError(failed);
            return;
        }
        observer.onNext(value);
        observer.onCompleted();
    }

    private final class Service extends AutoscalerStateServiceGrpc.AutoscalerStateServiceImplBase {

        @Override
        public void getClusterResourceState(GetClusterResourceStateRequest request, StreamObserver<GetClusterResourceStateReply> observer) {
            answer(observer, () -> GetClusterResourceStateReply.newBuilder()
                    .setClusterResourceState(backend.read(request.getLastSeenClusterResourceStateVersion())).build());
        }

        @Override
        public void drainNode(DrainNodeRequest request, StreamObserver<DrainNodeReply> observer) {
            answer(observer, () -> {
                DrainNodeReply reply = backend.drain(request);
                if (reply.getIsAccepted()) {
                    faults.drainAccepted();
                }
                return reply;
            });
        }

        @Override
        public void reportAutoscalingState(ReportAutoscalingStateRequest request, StreamObserver<ReportAutoscalingStateReply> observer) {
            answer(observer, () -> {
                backend.report(request);
                return ReportAutoscalingStateReply.getDefaultInstance();
            });
        }

        @Override
        public void getClusterStatus(GetClusterStatusRequest request, StreamObserver<GetClusterStatusReply> observer) {
            answer(observer, backend::clusterStatus);
        }
    }

    /**
     * The KV: a missing key is no gRPC error but a reply whose status is NotFound, "Failed to find the key"
     * ({@code GcsInternalKVManager::HandleInternalKVGet}).
     */
    private final class KvService extends InternalKVGcsServiceGrpc.InternalKVGcsServiceImplBase {

        @Override
        public void internalKVGet(InternalKVGetRequest request, StreamObserver<InternalKVGetReply> observer) {
            answer(observer, () -> {
                var value = backend.kvGet(new RayKv.Key(request.getNamespace().toStringUtf8(), request.getKey().toStringUtf8()));
                return value == null
                        ? InternalKVGetReply.newBuilder().setStatus(GcsStatus.newBuilder().setCode(RayKv.NOT_FOUND).setMessage("Failed to find the key")).build()
                        : InternalKVGetReply.newBuilder().setStatus(GcsStatus.getDefaultInstance()).setValue(value).build();
            });
        }

        @Override
        public void internalKVPut(InternalKVPutRequest request, StreamObserver<InternalKVPutReply> observer) {
            answer(observer, () -> InternalKVPutReply.newBuilder().setStatus(GcsStatus.getDefaultInstance())
                    .setAddedNum(backend.kvPut(new RayKv.Key(request.getNamespace().toStringUtf8(), request.getKey().toStringUtf8()),
                            request.getValue(), request.getOverwrite()) ? 1 : 0).build());
        }
    }

    private final class AuthorizationCapture implements ServerInterceptor {
        @Override
        public <Q, R> ServerCall.Listener<Q> interceptCall(ServerCall<Q, R> call, Metadata headers, ServerCallHandler<Q, R> next) {
            String authorization = headers.get(AUTHORIZATION);
            if (authorization != null) {
                authorizations.add(authorization);
            }
            return Contexts.interceptCall(Context.current().withValue(CALLER_AUTHORIZATION, authorization), call, headers, next);
        }
    }
}
