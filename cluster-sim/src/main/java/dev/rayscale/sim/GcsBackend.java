package dev.rayscale.sim;

import dev.rayscale.gcs.proto.ClusterResourceState;
import dev.rayscale.gcs.proto.DrainNodeReply;
import dev.rayscale.gcs.proto.DrainNodeRequest;
import dev.rayscale.gcs.proto.ReportAutoscalingStateRequest;

/**
 * What answers a GCS's autoscaler calls behind {@link GcsServer}. A call that the real GCS would fail
 * throws a {@code StatusRuntimeException} with the status it would send.
 */
public interface GcsBackend {

    /** {@code GetClusterResourceState}: bumps the version (fact A1.2) and may bring the GCS down (A1.1). */
    ClusterResourceState read(long lastSeenVersion);

    /** {@code DrainNode}, per facts A3.10 to A3.15. */
    DrainNodeReply drain(DrainNodeRequest request);

    /** {@code ReportAutoscalingState}: an older report than the one held is dropped, the reply still OK (A2.5). */
    void report(ReportAutoscalingStateRequest request);
}
