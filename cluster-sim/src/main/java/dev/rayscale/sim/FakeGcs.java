package dev.rayscale.sim;

import com.google.protobuf.ByteString;
import dev.rayscale.gcs.RayKv;
import dev.rayscale.gcs.proto.AutoscalingState;
import dev.rayscale.gcs.proto.ClusterResourceState;
import dev.rayscale.gcs.proto.DrainNodeReply;
import dev.rayscale.gcs.proto.DrainNodeRequest;
import dev.rayscale.gcs.proto.GetClusterStatusReply;
import dev.rayscale.gcs.proto.NodeState;
import dev.rayscale.gcs.proto.ReportAutoscalingStateRequest;
import io.grpc.InsecureServerCredentials;
import io.grpc.ServerCredentials;
import io.grpc.Status;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;

/**
 * One Ray cluster's GCS for service tests: a real gRPC server ({@link GcsServer}) serving whatever
 * content the test scripts, with the real GCS's rules around it — the version is its own counter,
 * bumped by every read and stamped on every node (fact A1.2), reset by a restart (A1.3), and a read
 * whose {@code last_seen_cluster_resource_state_version} is above it makes the GCS exit (A1.1): it then
 * answers nothing until {@link #restart()}. Drains with a negative deadline are refused (A3.10); an
 * older report than the one held is dropped (A2.5). Its KV starts as a real GCS's does ({@link GcsKv}) for the Ray it
 * plays. It can be made to fail, and records what it was sent.
 */
public final class FakeGcs implements AutoCloseable, GcsBackend {

    private final RayRelease release;
    private final GcsKv kv = new GcsKv();
    private final GcsServer server;
    private final AtomicReference<ClusterResourceState> content = new AtomicReference<>(ClusterResourceState.getDefaultInstance());
    private final AtomicReference<Status> failure = new AtomicReference<>();
    private final AtomicReference<Function<DrainNodeRequest, DrainNodeReply>> drains =
            new AtomicReference<>(request -> DrainNodeReply.newBuilder().setIsAccepted(true).build());
    private final AtomicInteger reads = new AtomicInteger();
    private final AtomicInteger exits = new AtomicInteger();
    private final List<DrainNodeRequest> drainRequests = new CopyOnWriteArrayList<>();
    private final List<ReportAutoscalingStateRequest> reports = new CopyOnWriteArrayList<>();
    private long version;
    private boolean down;
    private AutoscalingState held;

    private FakeGcs(RayRelease release, ServerCredentials credentials) {
        this.release = release;
        kv.start(release);
        server = new GcsServer(this, () -> System.nanoTime() / 1e9, credentials);
    }

    /** The GCS of the current Ray. */
    public static FakeGcs start() {
        return new FakeGcs(RayRelease.of(RayRelease.CURRENT), InsecureServerCredentials.create());
    }

    /** The GCS of the current Ray serving TLS with {@code credentials} ({@link GcsServer#mutualTls}). */
    public static FakeGcs start(ServerCredentials credentials) {
        return new FakeGcs(RayRelease.of(RayRelease.CURRENT), credentials);
    }

    /** The GCS of Ray {@code version}: without the autoscaler state service before 2.7 ({@link RayRelease}). */
    public static FakeGcs ofRay(String version) {
        return new FakeGcs(RayRelease.of(version), InsecureServerCredentials.create());
    }

    /** {@code 127.0.0.1:<port>}, for the {@code rayscale.dev/gcs-address} annotation. */
    public String address() {
        return server.address();
    }

    /** Serves {@code next} from now on; its version is replaced by the GCS's own counter. */
    public FakeGcs serve(ClusterResourceState next) {
        content.set(next);
        return this;
    }

    public ClusterResourceState state() {
        return content.get();
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

    /** A new GCS process: up again, its version counter back at 0, no report held (fact A1.3). */
    public synchronized FakeGcs restart() {
        down = false;
        version = 0;
        held = null;
        kv.start(release);
        return this;
    }

    /** What the KV holds under {@code key}, as text; null if nothing. */
    public synchronized String kv(RayKv.Key key) {
        return kv.text(key);
    }

    /** Writes the KV as a Ray client would (a driver's {@code request_resources}, say). */
    public synchronized FakeGcs putKv(RayKv.Key key, String value) {
        kv.put(key, ByteString.copyFromUtf8(value), true);
        return this;
    }

    /** Answers drains with {@code answer} (by default every drain is accepted). */
    public FakeGcs answerDrains(Function<DrainNodeRequest, DrainNodeReply> answer) {
        drains.set(answer);
        return this;
    }

    /** Refuses calls that do not carry {@code authorization: Bearer <token>}. */
    public FakeGcs requireToken(String token) {
        server.requireToken(token);
        return this;
    }

    public int reads() {
        return reads.get();
    }

    /** How many times a client's {@code last_seen} made this GCS exit. */
    public int exits() {
        return exits.get();
    }

    public synchronized long version() {
        return version;
    }

    public List<DrainNodeRequest> drainRequests() {
        return List.copyOf(drainRequests);
    }

    public List<ReportAutoscalingStateRequest> reports() {
        return List.copyOf(reports);
    }

    /** The report the GCS holds: the last one not older than its predecessor. */
    public synchronized AutoscalingState heldReport() {
        return held;
    }

    public List<String> authorizations() {
        return server.authorizations();
    }

    @Override
    public void close() {
        server.close();
    }

    private synchronized void refuseIfDown() {
        Status status = failure.get();
        if (status != null) {
            throw status.asRuntimeException();
        }
        if (down) {
            throw Status.UNAVAILABLE.withDescription("the GCS process exited").asRuntimeException();
        }
    }

    @Override
    public synchronized ClusterResourceState read(long lastSeenVersion) {
        reads.incrementAndGet();
        refuseIfDown();
        if (lastSeenVersion > version) {
            // RAY_CHECK(last_seen <= last_cluster_resource_state_version_) fails: the GCS logs FATAL and exits (A1.1).
            down = true;
            exits.incrementAndGet();
            throw Status.UNAVAILABLE.withDescription("the GCS process exited").asRuntimeException();
        }
        version++;
        ClusterResourceState.Builder reply = content.get().toBuilder().setClusterResourceStateVersion(version);
        for (NodeState.Builder node : reply.getNodeStatesBuilderList()) {
            node.setNodeStateVersion(version);
        }
        return reply.build();
    }

    @Override
    public DrainNodeReply drain(DrainNodeRequest request) {
        refuseIfDown();
        if (request.getDeadlineTimestampMs() < 0) {
            throw Status.INVALID_ARGUMENT.withDescription("deadline_timestamp_ms must not be negative").asRuntimeException();
        }
        drainRequests.add(request);
        return drains.get().apply(request);
    }

    @Override
    public synchronized GetClusterStatusReply clusterStatus() {
        GetClusterStatusReply.Builder reply = GetClusterStatusReply.newBuilder().setClusterResourceState(read(0));
        if (held != null) {
            reply.setAutoscalingState(held);
        }
        return reply.build();
    }

    @Override
    public synchronized ByteString kvGet(RayKv.Key key) {
        refuseIfDown();
        return kv.get(key);
    }

    @Override
    public synchronized boolean kvPut(RayKv.Key key, ByteString value, boolean overwrite) {
        refuseIfDown();
        return kv.put(key, value, overwrite);
    }

    @Override
    public boolean servesAutoscalerState() {
        return release.servesAutoscalerState();
    }

    @Override
    public synchronized void report(ReportAutoscalingStateRequest request) {
        refuseIfDown();
        reports.add(request);
        AutoscalingState state = request.getAutoscalingState();
        if (held == null || state.getAutoscalerStateVersion() >= held.getAutoscalerStateVersion()) {
            held = state;
        }
    }
}
