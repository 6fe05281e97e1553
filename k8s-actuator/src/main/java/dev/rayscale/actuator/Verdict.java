package dev.rayscale.actuator;

import dev.rayscale.events.GroupTarget;
import dev.rayscale.events.ScaleDecision;
import io.ray.v1.RayCluster;
import io.ray.v1.rayclusterspec.WorkerGroupSpecs;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * Whether a decision may be applied to the RayCluster as it is now. A decision is applied at most
 * once and never late: not after it expires, not after a newer one was applied, and not to a
 * RayCluster whose fields it relied on have changed since its snapshot.
 */
sealed interface Verdict {

    /** It may be applied. */
    record Fresh() implements Verdict {
    }

    /** This very decision was applied before (a redelivery): nothing to do. */
    record AlreadyApplied(String reason) implements Verdict {
    }

    /** It must not be applied. */
    record Stale(String reason, boolean superseded) implements Verdict {
    }

    /** Checks what needs no RayCluster: expiry. */
    static Verdict ofTime(ScaleDecision decision, Instant now) {
        if (now.isAfter(decision.expiresAt())) {
            return new Stale("expired at " + decision.expiresAt() + ", received " + now, false);
        }
        return new Fresh();
    }

    static Verdict of(ScaleDecision decision, RayCluster cluster) {
        String uid = cluster.getMetadata().getUid();
        if (decision.cluster().uid() != null && uid != null && !decision.cluster().uid().equals(uid)) {
            return new Stale("the RayCluster was deleted and re-created since the snapshot (uid " + uid + ")", false);
        }
        AppliedMark applied = AppliedMark.of(cluster);
        if (applied.sequence() == decision.snapshotSequence() && applied.decisionId().equals(decision.id())) {
            return new AlreadyApplied("decision " + decision.id() + " was already applied");
        }
        if (applied.sequence() >= decision.snapshotSequence()) {
            return new Stale("a decision from a newer snapshot (" + applied.sequence() + ", decision " + applied.decisionId()
                    + ") was already applied; this one is from snapshot " + decision.snapshotSequence(), true);
        }
        List<WorkerGroupSpecs> groups = cluster.getSpec().getWorkerGroupSpecs() == null ? List.of() : cluster.getSpec().getWorkerGroupSpecs();
        for (GroupTarget target : decision.groups()) {
            String changed = changedSince(target, groups);
            if (changed != null) {
                return new Stale(changed, false);
            }
        }
        return new Fresh();
    }

    private static String changedSince(GroupTarget target, List<WorkerGroupSpecs> groups) {
        if (target.index() >= groups.size() || !target.name().equals(groups.get(target.index()).getGroupName())) {
            return "worker group " + target.name() + " is no longer at index " + target.index();
        }
        WorkerGroupSpecs group = groups.get(target.index());
        int replicas = group.getReplicas() == null ? 0 : group.getReplicas();
        if (replicas != target.currentReplicas()) {
            return "worker group " + target.name() + " has replicas " + replicas + " now; the decision assumed " + target.currentReplicas();
        }
        List<String> workersToDelete = Patches.workersToDelete(group);
        if (!Objects.equals(workersToDelete, target.currentWorkersToDelete())) {
            return "worker group " + target.name() + " has workersToDelete " + workersToDelete + " now; the decision assumed "
                    + target.currentWorkersToDelete();
        }
        return null;
    }
}
