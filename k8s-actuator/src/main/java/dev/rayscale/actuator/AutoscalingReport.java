package dev.rayscale.actuator;

import dev.rayscale.events.InfeasibleDemand;
import dev.rayscale.events.PendingLaunch;
import dev.rayscale.events.Resources;
import dev.rayscale.events.ScaleDecision;
import dev.rayscale.events.ShapeCount;
import dev.rayscale.gcs.proto.AutoscalingState;
import dev.rayscale.gcs.proto.ClusterResourceConstraint;
import dev.rayscale.gcs.proto.FailedInstanceRequest;
import dev.rayscale.gcs.proto.GangResourceRequest;
import dev.rayscale.gcs.proto.PendingInstanceRequest;
import dev.rayscale.gcs.proto.ResourceRequest;
import dev.rayscale.gcs.proto.ResourceRequestByCount;
import java.time.Instant;

/**
 * A decision as the autoscaling state Ray's {@code ray status} reads from the GCS ({@code GetClusterStatus}, fact A2.9),
 * in Ray's own terms:
 * <ul>
 *   <li>timestamps in Unix <em>seconds</em>, as {@code autoscaler.proto} says of {@code request_ts}, {@code start_ts} and
 *       {@code failed_ts} (fact D50): {@code ray status} formats {@code start_ts} with Python's
 *       {@code datetime.fromtimestamp}, which fails on a millisecond value ("year 55840 is out of range");</li>
 *   <li>one pending instance request per node asked for: {@code ray status} prints {@code <group>, N launching} with N the
 *       number of entries of the group, not the sum of their counts ({@code ClusterStatusFormatter._pending_node_report}).</li>
 * </ul>
 * The version is the decision's snapshot sequence, which only moves forward, also across actuator restarts: the GCS
 * discards a report older than the one it holds (fact A2.5).
 */
final class AutoscalingReport {

    /** Entries of one group at most: a group asked to grow by more still shows as this many launching. */
    static final int MAX_LAUNCH_ENTRIES = 1_000;

    private AutoscalingReport() {
    }

    static AutoscalingState of(ScaleDecision decision, Instant now) {
        AutoscalingState.Builder state = AutoscalingState.newBuilder().setAutoscalerStateVersion(decision.snapshotSequence());
        long nowSeconds = now.getEpochSecond();
        for (PendingLaunch launch : decision.launches()) {
            PendingInstanceRequest entry = PendingInstanceRequest.newBuilder().setRayNodeTypeName(launch.group())
                    .setInstanceTypeName(launch.group()).setCount(1).setRequestTs(nowSeconds).build();
            for (int i = 0; i < Math.min(launch.requested(), MAX_LAUNCH_ENTRIES); i++) {
                state.addPendingInstanceRequests(entry);
            }
            if (launch.failed() > 0) {
                state.addFailedInstanceRequests(FailedInstanceRequest.newBuilder().setRayNodeTypeName(launch.group())
                        .setInstanceTypeName(launch.group()).setCount(launch.failed())
                        .setReason(launch.failure() == null ? "the operator cannot create pods" : launch.failure())
                        .setStartTs(decision.decidedAt().getEpochSecond()).setFailedTs(nowSeconds));
            }
        }
        for (InfeasibleDemand infeasible : decision.infeasible()) {
            switch (infeasible.kind()) {
                case TASK -> state.addInfeasibleResourceRequests(request(infeasible.shape()));
                case GANG -> {
                    GangResourceRequest.Builder gang = GangResourceRequest.newBuilder().setDetails(infeasible.gangId());
                    infeasible.bundles().forEach(bundle -> {
                        for (long i = 0; i < bundle.count(); i++) {
                            gang.addRequests(request(bundle.shape()));
                        }
                    });
                    state.addInfeasibleGangResourceRequests(gang);
                }
                case CONSTRAINT -> {
                    ClusterResourceConstraint.Builder constraint = ClusterResourceConstraint.newBuilder();
                    for (ShapeCount bundle : infeasible.bundles()) {
                        constraint.addResourceRequests(ResourceRequestByCount.newBuilder().setRequest(request(bundle.shape())).setCount(bundle.count()));
                    }
                    state.addInfeasibleClusterResourceConstraints(constraint);
                }
            }
        }
        return state.build();
    }

    private static ResourceRequest request(Resources shape) {
        ResourceRequest.Builder request = ResourceRequest.newBuilder();
        shape.asMap().forEach((name, amount) -> request.putResourcesBundle(name, amount.toBigDecimal().doubleValue()));
        return request.build();
    }
}
