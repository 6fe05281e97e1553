package dev.rayscale.events;

import java.math.BigDecimal;

/**
 * The cluster-wide scaling policy in force when the snapshot was taken, from the RayCluster's
 * {@code autoscalerOptions} and Rayscale annotations. Per-group overrides live on {@link WorkerGroup}.
 *
 * @param upscalingSpeed explicit speed s (pending pods of a group at most {@code max(1, ceil(s x running))});
 *     absent means the mode decides
 * @param idleTimeoutSeconds how long a Ray node must be idle before it may be removed (KubeRay default 60)
 * @param maxWorkers cluster-wide cap on worker nodes (head excluded); absent means no cap but the groups'
 * @param maxPendingLaunches cap on worker pods pending at once in this cluster; absent means the planner's default
 * @param pendingPodPatienceSeconds how long a worker pod may wait for a node before it is reported stuck;
 *     absent means the planner's default
 * @param replaceStuckPods whether a stuck pod is deleted so that the operator creates a new one
 * @param suspended {@code spec.suspend}: a suspended cluster is never scaled
 * @param packing how demand is packed onto nodes ({@code rayscale.dev/packing}); absent means the planner's default
 */
public record ScalingPolicy(
        UpscalingMode upscalingMode,
        BigDecimal upscalingSpeed,
        long idleTimeoutSeconds,
        Integer maxWorkers,
        Integer maxPendingLaunches,
        Long pendingPodPatienceSeconds,
        boolean replaceStuckPods,
        boolean suspended,
        Packing packing) {

    /** KubeRay's default idle timeout. */
    public static final long DEFAULT_IDLE_TIMEOUT_SECONDS = 60;

    public ScalingPolicy {
        Fields.required(upscalingMode, "policy.upscalingMode");
        Fields.notNegative(idleTimeoutSeconds, "policy.idleTimeoutSeconds");
        if (upscalingSpeed != null && upscalingSpeed.signum() <= 0) {
            throw new IllegalArgumentException("policy.upscalingSpeed must be positive, was " + upscalingSpeed);
        }
    }

    public ScalingPolicy(UpscalingMode upscalingMode, BigDecimal upscalingSpeed, long idleTimeoutSeconds, Integer maxWorkers,
            Integer maxPendingLaunches, Long pendingPodPatienceSeconds, boolean replaceStuckPods, boolean suspended) {
        this(upscalingMode, upscalingSpeed, idleTimeoutSeconds, maxWorkers, maxPendingLaunches, pendingPodPatienceSeconds, replaceStuckPods,
                suspended, null);
    }

    /** KubeRay's defaults: Default mode, 60 s idle timeout, nothing else set. */
    public static ScalingPolicy defaults() {
        return new ScalingPolicy(UpscalingMode.DEFAULT, null, DEFAULT_IDLE_TIMEOUT_SECONDS, null, null, null, false, false);
    }

    /** The same policy with {@code packing}. */
    public ScalingPolicy withPacking(Packing packing) {
        return new ScalingPolicy(upscalingMode, upscalingSpeed, idleTimeoutSeconds, maxWorkers, maxPendingLaunches, pendingPodPatienceSeconds,
                replaceStuckPods, suspended, packing);
    }
}
