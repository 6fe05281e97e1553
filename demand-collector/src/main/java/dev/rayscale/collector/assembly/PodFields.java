package dev.rayscale.collector.assembly;

import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.PodConditionBuilder;
import java.util.List;
import java.util.Objects;

/**
 * A pod reduced to what the assembly reads of it: identity, labels, creation and deletion times, phase, the
 * PodScheduled condition and the containers' waiting reasons. The collector's pod cache keeps every Ray pod of a
 * fleet; whole, with their specs, tens of thousands of them do not fit a small heap (a 2,000-pod cluster's spec alone
 * is megabytes), and nothing here reads a spec. A field the assembly starts reading must be kept here too (the test
 * holds the two together).
 */
public final class PodFields {

    private PodFields() {
    }

    public static Pod kept(Pod pod) {
        PodBuilder kept = new PodBuilder().withNewMetadata()
                .withName(pod.getMetadata().getName())
                .withNamespace(pod.getMetadata().getNamespace())
                .withUid(pod.getMetadata().getUid())
                .withResourceVersion(pod.getMetadata().getResourceVersion())
                .withLabels(pod.getMetadata().getLabels())
                .withCreationTimestamp(pod.getMetadata().getCreationTimestamp())
                .withDeletionTimestamp(pod.getMetadata().getDeletionTimestamp())
                .endMetadata();
        if (pod.getStatus() != null) {
            kept.withNewStatus()
                    .withPhase(pod.getStatus().getPhase())
                    .withConditions(Objects.requireNonNullElse(pod.getStatus().getConditions(), List.<PodCondition>of()).stream()
                            .filter(condition -> "PodScheduled".equals(condition.getType()))
                            .map(condition -> new PodConditionBuilder().withType(condition.getType()).withStatus(condition.getStatus())
                                    .withReason(condition.getReason()).build())
                            .toList())
                    .withContainerStatuses(Objects.requireNonNullElse(pod.getStatus().getContainerStatuses(), List.<ContainerStatus>of())
                            .stream()
                            .filter(status -> status.getState() != null && status.getState().getWaiting() != null)
                            .map(status -> new ContainerStatusBuilder().withNewState().withNewWaiting()
                                    .withReason(status.getState().getWaiting().getReason()).endWaiting().endState().build())
                            .toList())
                    .endStatus();
        }
        return kept.build();
    }
}
