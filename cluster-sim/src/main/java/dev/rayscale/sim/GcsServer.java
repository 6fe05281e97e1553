package dev.rayscale.sim;

import dev.rayscale.gcs.proto.AutoscalerStateServiceGrpc;
import dev.rayscale.gcs.proto.DrainNodeReply;
import dev.rayscale.gcs.proto.DrainNodeRequest;
import dev.rayscale.gcs.proto.GetClusterResourceStateReply;
import dev.rayscale.gcs.proto.GetClusterResourceStateRequest;
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
import io.grpc.ServerInterceptors;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.StreamObserver;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.DoubleSupplier;
import java.util.function.Supplier;

/**
 * A real gRPC server on a local port speaking Ray's {@code ray.rpc.autoscaler.AutoscalerStateService},
 * answering from a {@link GcsBackend}. It records the {@code authorization} header of each call and can
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
        this(backend, () -> System.nanoTime() / 1e9);
    }

    /** @param clock the simulated clock, in seconds, on which injected faults are timed */
    public GcsServer(GcsBackend backend, DoubleSupplier clock) {
        this.backend = backend;
        this.faults = new GcsFaults(clock);
        try {
            server = Grpc.newServerBuilderForPort(0, InsecureServerCredentials.create())
                    .addService(ServerInterceptors.intercept(new Service(), new AuthorizationCapture()))
                    .build().start();
        } catch (IOException e) {
            throw new UncheckedIOException("could not start the GCS server", e);
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
