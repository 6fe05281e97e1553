package dev.rayscale.actuator.core;

import dev.rayscale.events.ActuationCause;
import dev.rayscale.events.GroupTarget;
import dev.rayscale.events.ScaleDecision;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

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

    /**
     * It must not be applied, for {@code cause}: stale (EXPIRED, SUPERSEDED, CLUSTER_RECREATED, OPTED_OUT or
     * CLUSTER_CHANGED), or rejected by the cluster as it is now (IN_TREE_AUTOSCALING).
     */
    record Withheld(ActuationCause cause, String reason) implements Verdict {

        /** Because a newer decision was delivered or applied: the normal course of a backlog, no warning worth raising. */
        public boolean superseded() {
            return cause == ActuationCause.SUPERSEDED;
        }
    }

    /**
     * What needs no RayCluster: expiry; {@code newer}, a decision for the same cluster from a newer snapshot already
     * delivered (null if none), since a backlog is worked through by its newest decisions only; and {@code lastWrite},
     * this actuator's last write to the cluster (null if none known): a decision made before it,
     * assuming a worker group as it was before it, is superseded by it. Planner and actuator clocks may differ by a
     * little: a decision made in that moment after the write, on a group someone else changed meanwhile, is answered
     * superseded too; nothing is written on its account, and the next snapshot brings a fresh decision.
     */
    public static Verdict beforeReading(ScaleDecision decision, ScaleDecision newer, LastWrite lastWrite, Instant now) {
        if (now.isAfter(decision.expiresAt())) {
            return new Withheld(ActuationCause.EXPIRED, "expired at " + decision.expiresAt() + ", now " + now);
        }
        if (newer != null && newer.snapshotSequence() > decision.snapshotSequence()) {
            return new Withheld(ActuationCause.SUPERSEDED, "superseded by decision " + newer.id() + " from the newer snapshot "
                    + newer.snapshotSequence() + ", delivered with it");
        }
        if (lastWrite != null && !lastWrite.decisionId().equals(decision.id()) && decision.decidedAt().isBefore(lastWrite.appliedAt())
                && Objects.equals(decision.cluster().uid(), lastWrite.after().uid())) {
            for (GroupTarget target : decision.groups()) {
                String changed = changedSince(target, lastWrite.after().groups());
                if (changed != null) {
                    return new Withheld(ActuationCause.SUPERSEDED, "superseded by decision " + lastWrite.decisionId() + ", applied at "
                            + lastWrite.appliedAt() + ", after this one was made at " + decision.decidedAt() + ": " + changed);
                }
            }
        }
        return new Fresh();
    }

    public static Verdict of(ScaleDecision decision, ObservedCluster cluster, Instant now) {
        Verdict time = beforeReading(decision, null, null, now);
        if (time instanceof Withheld) {
            return time;
        }
        Withheld notOurs = notOurs(decision, cluster);
        if (notOurs != null) {
            return notOurs;
        }
        AppliedMark applied = cluster.mark();
        if (applied.names(decision)) {
            return new AlreadyApplied("decision " + decision.id() + " was already applied");
        }
        if (applied.sequence() >= decision.snapshotSequence()) {
            return new Withheld(ActuationCause.SUPERSEDED, "a decision from a newer snapshot (" + applied.sequence() + ", decision "
                    + applied.decisionId() + ") was already applied; this one is from snapshot " + decision.snapshotSequence());
        }
        for (GroupTarget target : decision.groups()) {
            String changed = changedSince(target, cluster.groups());
            if (changed != null) {
                return new Withheld(ActuationCause.CLUSTER_CHANGED, changed);
            }
        }
        return new Fresh();
    }

    /**
     * Why the RayCluster as read no longer takes this decision's writes, whatever it says of its groups: it was re-created,
     * opted out, or turned Ray's in-tree autoscaler on; null if it still does. Checked on every read before a write.
     */
    public static Withheld notOurs(ScaleDecision decision, ObservedCluster cluster) {
        if (decision.cluster().uid() != null && cluster.uid() != null && !decision.cluster().uid().equals(cluster.uid())) {
            return new Withheld(ActuationCause.CLUSTER_RECREATED, "the RayCluster was deleted and re-created since the snapshot (uid "
                    + cluster.uid() + ")");
        }
        if (!cluster.optedIn()) {
            return new Withheld(ActuationCause.OPTED_OUT, "the RayCluster no longer opts in to Rayscale");
        }
        if (cluster.inTreeAutoscaling()) {
            return new Withheld(ActuationCause.IN_TREE_AUTOSCALING, "spec.enableInTreeAutoscaling is true now: Ray's own "
                    + "autoscaler writes the same fields, so Rayscale writes nothing to this cluster while it is on");
        }
        return null;
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
