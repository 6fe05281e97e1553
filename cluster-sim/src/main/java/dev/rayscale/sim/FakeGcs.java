package dev.rayscale.sim;

import dev.rayscale.gcs.proto.AutoscalerStateServiceGrpc;
import dev.rayscale.gcs.proto.ClusterResourceState;
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
import io.grpc.stub.StreamObserver;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;

/**
 * A stand-in for one Ray cluster's GCS: a real gRPC server on a local port, speaking Ray's
 * {@code ray.rpc.autoscaler.AutoscalerStateService}, serving whatever state the test (or a
 * simulator) gives it. It can be made to fail, and it records drains, reports and the
 * {@code authorization} header it was sent.
 */
public final class FakeGcs implements AutoCloseable {

    private static final Metadata.Key<String> AUTHORIZATION = Metadata.Key.of("authorization", Metadata.ASCII_STRING_MARSHALLER);
    private static final Context.Key<String> CALLER_AUTHORIZATION = Context.key("authorization");

    private final Server server;
    private final AtomicReference<ClusterResourceState> state = new AtomicReference<>(ClusterResourceState.getDefaultInstance());
    private final AtomicReference<Status> failure = new AtomicReference<>();
    private final AtomicReference<Function<DrainNodeRequest, DrainNodeReply>> drains =
            new AtomicReference<>(request -> DrainNodeReply.newBuilder().setIsAccepted(true).build());
    private final AtomicReference<String> requiredToken = new AtomicReference<>();
    private final AtomicInteger reads = new AtomicInteger();
    private final List<DrainNodeRequest> drainRequests = new CopyOnWriteArrayList<>();
    private final List<ReportAutoscalingStateRequest> reports = new CopyOnWriteArrayList<>();
    private final List<String> authorizations = new CopyOnWriteArrayList<>();

    private FakeGcs() {
        try {
            server = Grpc.newServerBuilderForPort(0, InsecureServerCredentials.create())
                    .addService(ServerInterceptors.intercept(new Service(), new AuthorizationCapture()))
                    .build().start();
        } catch (IOException e) {
            throw new UncheckedIOException("could not start the fake GCS", e);
        }
    }

    public static FakeGcs start() {
        return new FakeGcs();
    }

    /** {@code 127.0.0.1:<port>}, for the {@code rayscale.dev/gcs-address} annotation. */
    public String address() {
        return "127.0.0.1:" + server.getPort();
    }

    public FakeGcs serve(ClusterResourceState next) {
        state.set(next);
        return this;
    }

    public ClusterResourceState state() {
        return state.get();
    }

    /** Every call fails with {@code status} until {@link #heal()}. */
    public FakeGcs fail(Status status) {
        failure.set(status);
        return this;
    }

    public FakeGcs heal() {
        failure.set(null);
        return this;
    }

    /** Answers drains with {@code answer} (by default every drain is accepted). */
    public FakeGcs answerDrains(Function<DrainNodeRequest, DrainNodeReply> answer) {
        drains.set(answer);
        return this;
    }

    /** Refuses calls that do not carry {@code authorization: Bearer <token>}. */
    public FakeGcs requireToken(String token) {
        requiredToken.set(token);
        return this;
    }

    public int reads() {
        return reads.get();
    }

    public List<DrainNodeRequest> drainRequests() {
        return List.copyOf(drainRequests);
    }

    public List<ReportAutoscalingStateRequest> reports() {
        return List.copyOf(reports);
    }

    public List<String> authorizations() {
        return List.copyOf(authorizations);
    }

    @Override
    public void close() {
        server.shutdownNow();
    }

    private boolean refuse(StreamObserver<?> observer) {
        Status status = failure.get();
        if (status != null) {
            observer.onError(status.asRuntimeException());
            return true;
        }
        String token = requiredToken.get();
        if (token != null && !("Bearer " + token).equals(CALLER_AUTHORIZATION.get())) {
            observer.onError(Status.UNAUTHENTICATED.withDescription("missing or wrong token").asRuntimeException());
            return true;
        }
        return false;
    }

    private final class Service extends AutoscalerStateServiceGrpc.AutoscalerStateServiceImplBase {

        @Override
        public void getClusterResourceState(GetClusterResourceStateRequest request, StreamObserver<GetClusterResourceStateReply> observer) {
            reads.incrementAndGet();
            if (refuse(observer)) {
                return;
            }
            observer.onNext(GetClusterResourceStateReply.newBuilder().setClusterResourceState(state.get()).build());
            observer.onCompleted();
        }

        @Override
        public void drainNode(DrainNodeRequest request, StreamObserver<DrainNodeReply> observer) {
            if (refuse(observer)) {
                return;
            }
            drainRequests.add(request);
            observer.onNext(drains.get().apply(request));
            observer.onCompleted();
        }

        @Override
        public void reportAutoscalingState(ReportAutoscalingStateRequest request, StreamObserver<ReportAutoscalingStateReply> observer) {
            if (refuse(observer)) {
                return;
            }
            reports.add(request);
            observer.onNext(ReportAutoscalingStateReply.getDefaultInstance());
            observer.onCompleted();
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
