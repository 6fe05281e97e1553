package dev.rayscale.events;

/** A worker pod that has waited longer than the policy's patience for a node to run on. */
public record StuckPod(String podName, String group, long waitingSeconds, String reason) {

    public StuckPod {
        Fields.requiredText(podName, "stuckPods.podName");
        Fields.requiredText(group, "stuckPods.group");
        Fields.notNegative(waitingSeconds, "stuckPods.waitingSeconds");
    }
}
