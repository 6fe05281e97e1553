package dev.rayscale.actuator.core;

import dev.rayscale.events.ActuationCause;
import dev.rayscale.events.ScaleDecision;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What the actuator does next with a decision, decided purely from what the shell has read or been answered. The
 * shell's steps, each once: observe, {@link #judge}, drain, settle, {@link #afterDrains}, write, report the
 * {@link Ending}.
 */
public final class Actuation {

    /** The next step. */
    public sealed interface Next {
    }

    /** Nothing more to do. */
    public record End(Ending ending) implements Next {
    }

    /** Drain what the plan names through the GCS (nothing in a dry run), then settle the plan with Ray's answers. */
    public record Drain(ActuationPlan plan, boolean dryRun) implements Next {
    }

    /**
     * Write the plan with compare-and-set. {@code expiry} is set when the decision expired while its drains ran and
     * the plan only finishes removing the pods Ray drained.
     */
    public record Write(ActuationPlan plan, String expiry) implements Next {

        /** The ending of this write, given the writer's. */
        public Ending concluded(Ending written) {
            if (expiry == null || written.cause() != ActuationCause.PATCHED) {
                return written;
            }
            return written.as(ActuationCause.DRAINED_PODS_REMOVED, expiry + "; only the drained pods were removed: " + written.reason());
        }
    }

    private Actuation() {
    }

    /**
     * What needs nothing read: an expired decision, one superseded by {@code newer} (null if none) delivered with it, or
     * one made before {@code lastWrite} (null if none) changed what it assumed.
     */
    public static Optional<Ending> beforeReading(ScaleDecision decision, ScaleDecision newer, LastWrite lastWrite, Instant now) {
        return Verdict.beforeReading(decision, newer, lastWrite, now) instanceof Verdict.Withheld stale
                ? Optional.of(Ending.unread(stale.cause(), stale.reason())) : Optional.empty();
    }

    /**
     * The plan to write without reading the RayCluster, judged on the one {@code lastWrite} (this actuator's last write to
     * the cluster, null if none) left, or empty when it must be read: when the decision removes pods or lowers replicas
     * ({@link #readsPods}), when that RayCluster says the decision is stale, already applied, a dry run or changes nothing
     * (only a fresh read may say so). The plan's patch ({@link Patches#buildUnread}) tests that the spec and annotations
     * are still as that write left them, so a RayCluster changed since is never written to on this judgement.
     */
    public static Optional<ActuationPlan> unreadWrite(ScaleDecision decision, LastWrite lastWrite, Instant now, boolean dryRunConfigured) {
        if (lastWrite == null || lastWrite.generation() == null || readsPods(decision)) {
            return Optional.empty();
        }
        Next next = judge(decision, lastWrite.after(), now, dryRunConfigured);
        if (!(next instanceof Drain drain) || drain.dryRun() || !drain.plan().toDrain().isEmpty()) {
            return Optional.empty();
        }
        drain.plan().settle(Map.of());
        return afterDrains(decision, drain.plan(), false, now) instanceof Write write && write.expiry() == null
                ? Optional.of(write.plan()) : Optional.empty();
    }

    /**
     * Whether the pods must be read: when the decision removes any, or lowers replicas at all. Replicas given back with
     * no pod named (launches that failed, replicas not yet started) may have got their pods since the snapshot; the
     * patch never drops below the pods that exist, or the operator would delete pods of its own choosing (fact B6.27).
     */
    public static boolean readsPods(ScaleDecision decision) {
        return decision.groups().stream().anyMatch(group -> !group.toDelete().isEmpty() || !group.currentWorkersToDelete().isEmpty()
                || group.targetReplicas() < group.currentReplicas());
    }

    /** Whether the GCS's live nodes must be read: when the decision names the nodes it removes. */
    public static boolean readsLiveNodes(ScaleDecision decision) {
        return decision.groups().stream().flatMap(group -> group.toDelete().stream()).anyMatch(deletion -> deletion.nodeId() != null);
    }

    /** The verdict on the RayCluster as observed (null if it no longer exists), and if fresh, the plan to drain. */
    public static Next judge(ScaleDecision decision, ObservedCluster cluster, Instant now, boolean dryRunConfigured) {
        if (cluster == null) {
            return new End(Ending.unread(ActuationCause.CLUSTER_DELETED, "the RayCluster no longer exists"));
        }
        Verdict verdict = Verdict.of(decision, cluster, now);
        if (!(verdict instanceof Verdict.Fresh)) {
            return new End(Ending.judged(decision, verdict, cluster.resourceVersion()));
        }
        return new Drain(ActuationPlan.of(decision, cluster), dryRunConfigured || cluster.dryRun());
    }

    /** Once the plan is settled with Ray's answers: nothing to change, a dry run's report, or what to write. */
    public static Next afterDrains(ScaleDecision decision, ActuationPlan plan, boolean dryRun, Instant now) {
        if (!plan.changes()) {
            boolean refused = plan.refusedAny();
            return new End(Ending.unwritten(refused ? ActuationCause.DRAINS_REFUSED : ActuationCause.ALREADY_MATCHES,
                    refused ? "nothing left to change: every removal it asked for was refused" : "the RayCluster already matches",
                    plan, false, dryRun, List.of()));
        }
        if (dryRun) {
            return new End(Ending.unwritten(ActuationCause.DRY_RUN, "dry run, not patched: " + plan.summary(), plan, true, true,
                    Notice.changes(decision, plan, true)));
        }
        if (now.isAfter(decision.expiresAt())) {
            String expiry = "expired at " + decision.expiresAt() + " while its drains ran";
            return plan.drainedAny() ? new Write(ActuationPlan.finishing(plan, plan.cluster()), expiry)
                    : new End(Ending.unwritten(ActuationCause.EXPIRED, expiry, plan, false, false, List.of()));
        }
        return new Write(plan, null);
    }
}
