package dev.rayscale.actuator.core;

import dev.rayscale.events.GroupTarget;
import dev.rayscale.events.ScaleDecision;
import java.time.Instant;
import java.util.List;

/**
 * Whether a decision may be applied to the RayCluster as it is now. A decision is applied at most
 * once and never late: not after it expires, not after a newer one was applied, not to a RayCluster
 * re-created under the same name, and not when any group it relied on has changed since its snapshot.
 */
public sealed interface Verdict {

    /** It may be applied. */
    record Fresh() implements Verdict {
    }

    /** This very decision was applied before (a redelivery): nothing to do. */
    record AlreadyApplied(String reason) implements Verdict {
    }

    /** It must not be applied; {@code superseded}: because a newer one was (no warning worth raising). */
    record Stale(String reason, boolean superseded) implements Verdict {
    }

    /**
     * What needs no RayCluster: expiry, and {@code newer}, a decision for the same cluster from a newer
     * snapshot already delivered (null if none): a backlog is worked through by its newest decisions only.
     */
    public static Verdict beforeReading(ScaleDecision decision, ScaleDecision newer, Instant now) {
        if (now.isAfter(decision.expiresAt())) {
            return new Stale("expired at " + decision.expiresAt() + ", now " + now, false);
        }
        if (newer != null && newer.snapshotSequence() > decision.snapshotSequence()) {
            return new Stale("superseded by decision " + newer.id() + " from the newer snapshot " + newer.snapshotSequence()
                    + ", delivered with it", true);
        }
        return new Fresh();
    }

    public static Verdict of(ScaleDecision decision, ObservedCluster cluster, Instant now) {
        Verdict time = beforeReading(decision, null, now);
        if (time instanceof Stale) {
            return time;
        }
        if (decision.cluster().uid() != null && cluster.uid() != null && !decision.cluster().uid().equals(cluster.uid())) {
            return new Stale("the RayCluster was deleted and re-created since the snapshot (uid " + cluster.uid() + ")", false);
        }
        if (!cluster.optedIn()) {
            return new Stale("the RayCluster no longer opts in to Rayscale", false);
        }
        AppliedMark applied = cluster.mark();
        if (applied.names(decision)) {
            return new AlreadyApplied("decision " + decision.id() + " was already applied");
        }
        if (applied.sequence() >= decision.snapshotSequence()) {
            return new Stale("a decision from a newer snapshot (" + applied.sequence() + ", decision " + applied.decisionId()
                    + ") was already applied; this one is from snapshot " + decision.snapshotSequence(), true);
        }
        for (GroupTarget target : decision.groups()) {
            String changed = changedSince(target, cluster.groups());
            if (changed != null) {
                return new Stale(changed, false);
            }
        }
        return new Fresh();
    }

    private static String changedSince(GroupTarget target, List<ObservedCluster.ObservedGroup> groups) {
        if (target.index() >= groups.size() || !target.name().equals(groups.get(target.index()).name())) {
            return "worker group " + target.name() + " is no longer at index " + target.index();
        }
        ObservedCluster.ObservedGroup group = groups.get(target.index());
        if (group.replicasOrZero() != target.currentReplicas()) {
            return "worker group " + target.name() + " has replicas " + group.replicasOrZero() + " now; the decision assumed "
                    + target.currentReplicas();
        }
        if (!group.workersToDelete().equals(target.currentWorkersToDelete())) {
            return "worker group " + target.name() + " has workersToDelete " + group.workersToDelete() + " now; the decision assumed "
                    + target.currentWorkersToDelete();
        }
        return null;
    }
}
