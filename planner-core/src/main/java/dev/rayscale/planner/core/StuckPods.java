package dev.rayscale.planner.core;

import dev.rayscale.events.DeletionCause;
import dev.rayscale.events.PendingPod;
import dev.rayscale.events.PodDeletion;
import dev.rayscale.events.ReasonCode;
import dev.rayscale.events.StuckPod;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

/**
 * A worker pod waiting for a Kubernetes node is capacity on its way: counted, never asked for twice,
 * never deleted while a node autoscaler works. Only past the policy's patience is it reported, and
 * replaced (deleted, its replica kept, so that the operator creates a new pod) if the policy says so.
 */
final class StuckPods {

    private StuckPods() {
    }

    static void apply(Plan plan) {
        Map<String, Node> waitingPods = new HashMap<>();
        for (Node node : plan.waiting) {
            if (node.origin == Node.Origin.PENDING_POD) {
                waitingPods.put(node.podName, node);
            }
        }
        Duration patience = plan.policy.pendingPodPatience();
        for (PendingPod pod : plan.snapshot.pendingPods()) {
            Node node = waitingPods.get(pod.podName());
            if (node == null || node.removed) {
                continue;
            }
            Duration waited = Duration.between(pod.createdAt(), plan.snapshot.observedAt());
            if (waited.compareTo(patience) <= 0) {
                continue;
            }
            plan.stuckPods.add(new StuckPod(pod.podName(), pod.group(), Math.max(0, waited.toSeconds()), pod.reason()));
            Group group = node.group;
            if (plan.policy.replaceStuckPods() && group.hosts == 1 && !group.deletionInProgress && !group.suspended()) {
                group.deletions.add(new PodDeletion(pod.podName(), null, DeletionCause.STUCK_PENDING, null));
                plan.because(ReasonCode.STUCK_POD_REPLACED, group, "replace " + pod.podName() + ", waiting for a node " + waited.toSeconds()
                        + "s > " + patience.toSeconds() + "s");
            } else {
                plan.because(ReasonCode.STUCK_POD_WAITING, group, pod.podName() + " has waited for a node " + waited.toSeconds()
                        + "s > " + patience.toSeconds() + "s" + (pod.reason() == null ? "" : " (" + pod.reason() + ")"));
            }
        }
    }
}
