package dev.rayscale.planner.core;

import dev.rayscale.events.ClusterSnapshot;
import dev.rayscale.events.Packing;
import dev.rayscale.events.ScalingPolicy;
import dev.rayscale.events.UpscalingMode;
import dev.rayscale.events.WorkerGroup;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HexFormat;

/**
 * The policy a plan follows: the snapshot's policy, with the planner's defaults where it is silent.
 *
 * @param upscalingSpeed launches per running node a group may have pending; null means no rate limit
 */
record EffectivePolicy(
        UpscalingMode upscalingMode,
        BigDecimal upscalingSpeed,
        long idleTimeoutSeconds,
        Integer maxWorkers,
        int maxPendingLaunches,
        Duration pendingPodPatience,
        boolean replaceStuckPods,
        boolean suspended,
        Duration decisionTtl,
        Packing packing) {

    /** KubeRay's Conservative mode is Ray's upscaling speed 1. */
    private static final BigDecimal CONSERVATIVE_SPEED = BigDecimal.ONE;

    static EffectivePolicy of(ScalingPolicy policy, PlannerSettings settings) {
        BigDecimal speed = policy.upscalingSpeed() != null ? policy.upscalingSpeed()
                : policy.upscalingMode() == UpscalingMode.CONSERVATIVE ? CONSERVATIVE_SPEED : null;
        return new EffectivePolicy(
                policy.upscalingMode(),
                speed,
                policy.idleTimeoutSeconds(),
                policy.maxWorkers(),
                policy.maxPendingLaunches() != null ? policy.maxPendingLaunches() : settings.maxPendingLaunches(),
                policy.pendingPodPatienceSeconds() != null ? Duration.ofSeconds(policy.pendingPodPatienceSeconds())
                        : settings.pendingPodPatience(),
                policy.replaceStuckPods(),
                policy.suspended(),
                settings.decisionTtl(),
                policy.packing() != null ? policy.packing() : settings.packing());
    }

    /**
     * A digest of everything in the policy that steers decisions, per-group idle timeouts included,
     * so that a replay can tell a different decision caused by configuration from one caused by code.
     */
    String hash(ClusterSnapshot snapshot) {
        StringBuilder canonical = new StringBuilder()
                .append("mode=").append(upscalingMode)
                .append(";speed=").append(upscalingSpeed == null ? "none" : upscalingSpeed.stripTrailingZeros().toPlainString())
                .append(";idle=").append(idleTimeoutSeconds)
                .append(";maxWorkers=").append(maxWorkers)
                .append(";maxPending=").append(maxPendingLaunches)
                .append(";patience=").append(pendingPodPatience.toSeconds())
                .append(";replaceStuck=").append(replaceStuckPods)
                .append(";suspended=").append(suspended)
                .append(";ttl=").append(decisionTtl.toMillis());
        for (WorkerGroup group : snapshot.workerGroups()) {
            canonical.append(";group:").append(group.name()).append(":idle=").append(group.idleTimeoutSeconds());
        }
        // Said only when not Ray's, so that the hashes of decisions recorded before packing was a choice stay as they were.
        if (packing != Packing.RAY) {
            canonical.append(";packing=").append(packing);
            for (WorkerGroup group : snapshot.workerGroups()) {
                canonical.append(";group:").append(group.name()).append(":cost=").append(NodeCost.of(group).toPlainString());
            }
        }
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(canonical.toString().getBytes(StandardCharsets.UTF_8));
            return "sha256:" + HexFormat.of().formatHex(digest, 0, 8);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is always available", e);
        }
    }
}
