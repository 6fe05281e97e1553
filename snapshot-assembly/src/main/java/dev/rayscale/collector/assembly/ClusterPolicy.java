package dev.rayscale.collector.assembly;

import dev.rayscale.events.Packing;
import dev.rayscale.events.Quoted;
import dev.rayscale.events.ScalingPolicy;
import dev.rayscale.events.UpscalingMode;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.ray.v1.RayCluster;
import io.ray.v1.rayclusterspec.AutoscalerOptions;
import java.math.BigDecimal;
import java.util.Arrays;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

/**
 * A cluster's scaling policy, from KubeRay's {@code autoscalerOptions} and {@code spec.suspend}, plus
 * Rayscale's own annotations for what KubeRay has no field for.
 */
public final class ClusterPolicy {

    public static final String ANNOTATION_PREFIX = "rayscale.dev/";
    public static final String UPSCALING_SPEED = ANNOTATION_PREFIX + "upscaling-speed";
    public static final String MAX_WORKERS = ANNOTATION_PREFIX + "max-workers";
    public static final String MAX_PENDING_LAUNCHES = ANNOTATION_PREFIX + "max-pending-launches";
    public static final String PENDING_POD_PATIENCE = ANNOTATION_PREFIX + "pending-pod-patience-seconds";
    public static final String REPLACE_STUCK_PODS = ANNOTATION_PREFIX + "replace-stuck-pods";
    public static final String PACKING = ANNOTATION_PREFIX + "packing";
    /** On a worker group's pod template: what one of its nodes costs. */
    public static final String NODE_COST = ANNOTATION_PREFIX + "node-cost";

    private ClusterPolicy() {
    }

    public static ScalingPolicy of(RayCluster cluster) {
        AutoscalerOptions options = cluster.getSpec().getAutoscalerOptions();
        Map<String, String> annotations = cluster.getMetadata().getAnnotations() == null ? Map.of() : cluster.getMetadata().getAnnotations();
        return new ScalingPolicy(
                mode(options),
                annotation(annotations, UPSCALING_SPEED, TenantBounds.positive(TenantBounds.MAX_UPSCALING_SPEED)),
                options != null && options.getIdleTimeoutSeconds() != null ? options.getIdleTimeoutSeconds()
                        : ScalingPolicy.DEFAULT_IDLE_TIMEOUT_SECONDS,
                annotation(annotations, MAX_WORKERS, TenantBounds.count(TenantBounds.MAX_WORKERS)),
                annotation(annotations, MAX_PENDING_LAUNCHES, TenantBounds.count(TenantBounds.MAX_PENDING_LAUNCHES)),
                annotation(annotations, PENDING_POD_PATIENCE, TenantBounds.seconds(TenantBounds.MAX_PATIENCE_SECONDS)),
                Boolean.parseBoolean(annotations.getOrDefault(REPLACE_STUCK_PODS, "false")),
                Boolean.TRUE.equals(cluster.getSpec().getSuspend()),
                annotation(annotations, PACKING, ClusterPolicy::packing));
    }

    /** What one node of a worker group costs, from its pod template's annotation; null if not given. */
    public static BigDecimal nodeCost(PodTemplateSpec template) {
        Map<String, String> annotations = template == null || template.getMetadata() == null || template.getMetadata().getAnnotations() == null
                ? Map.of() : template.getMetadata().getAnnotations();
        return annotation(annotations, NODE_COST, value -> {
            BigDecimal cost = new BigDecimal(value);
            if (cost.signum() <= 0) {
                throw new IllegalArgumentException("a node's cost must be positive");
            }
            return cost;
        });
    }

    private static Packing packing(String value) {
        try {
            return Packing.valueOf(value.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("expected one of " + Arrays.stream(Packing.values())
                    .map(packing -> packing.name().toLowerCase(Locale.ROOT)).toList());
        }
    }

    private static UpscalingMode mode(AutoscalerOptions options) {
        if (options == null || options.getUpscalingMode() == null) {
            return UpscalingMode.DEFAULT;
        }
        return switch (options.getUpscalingMode().getValue()) {
            case "Conservative" -> UpscalingMode.CONSERVATIVE;
            case "Aggressive" -> UpscalingMode.AGGRESSIVE;
            default -> UpscalingMode.DEFAULT;
        };
    }

    private static <T> T annotation(Map<String, String> annotations, String name, Function<String, T> parse) {
        String value = annotations.get(name);
        if (value == null || value.isBlank()) {
            return null;
        }
        if (value.length() > TenantBounds.MAX_ANNOTATION) {
            throw new IllegalArgumentException("annotation " + name + "=" + Quoted.of(value) + " is longer than " + TenantBounds.MAX_ANNOTATION
                    + " characters");
        }
        try {
            return parse.apply(value.trim());
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("annotation " + name + "=" + Quoted.of(value) + " is not valid: " + e.getMessage(), e);
        }
    }
}
