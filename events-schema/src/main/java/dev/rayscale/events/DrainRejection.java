package dev.rayscale.events;

/** A drain Ray refused (the node became busy), or could not be asked for. */
public record DrainRejection(String podName, String reason) {

    public DrainRejection {
        Fields.requiredText(podName, "drainRejected.podName");
        Fields.requiredText(reason, "drainRejected.reason");
    }
}
