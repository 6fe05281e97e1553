package dev.rayscale.events;

/** KubeRay's {@code autoscalerOptions.upscalingMode}. */
public enum UpscalingMode {
    /** Launch what the demand needs at once (speed 1000 in Ray's terms). */
    DEFAULT,
    /** Same as DEFAULT for Rayscale: no rate limit. */
    AGGRESSIVE,
    /** A group's pending pods may not outnumber its running Ray nodes (speed 1). */
    CONSERVATIVE
}
