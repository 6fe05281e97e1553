package dev.rayscale.sim;

import com.google.protobuf.ByteString;
import dev.rayscale.gcs.RayKv;
import dev.rayscale.gcs.proto.ClusterResourceState;
import dev.rayscale.gcs.proto.DrainNodeReply;
import dev.rayscale.gcs.proto.DrainNodeRequest;
import dev.rayscale.gcs.proto.GetClusterStatusReply;
import dev.rayscale.gcs.proto.ReportAutoscalingStateRequest;

/**
 * What answers a GCS's calls behind {@link GcsServer}. A call that the real GCS would fail throws a
 * {@code StatusRuntimeException} with the status it would send.
 */
public interface GcsBackend {

    /** {@code GetClusterResourceState}: bumps the version (fact A1.2) and may bring the GCS down (A1.1). */
    ClusterResourceState read(long lastSeenVersion);

    /** {@code DrainNode}, per facts A3.10 to A3.15. */
    DrainNodeReply drain(DrainNodeRequest request);

    /** {@code ReportAutoscalingState}: an older report than the one held is dropped, the reply still OK (A2.5). */
    void report(ReportAutoscalingStateRequest request);

    /** {@code GetClusterStatus}: a fresh resource state (a read, A1.2) and the report held (A2.9). */
    GetClusterStatusReply clusterStatus();

    /** {@code InternalKVGet}: the value, or null for a missing key. */
    ByteString kvGet(RayKv.Key key);

    /** {@code InternalKVPut}: true if the key was new. */
    boolean kvPut(RayKv.Key key, ByteString value, boolean overwrite);

    /** False for a Ray before the autoscaler state service: its calls then answer UNIMPLEMENTED, as gRPC does for a service it does not serve. */
    default boolean servesAutoscalerState() {
        return true;
    }
}
