package dev.rayscale.actuator.core;

import dev.rayscale.events.ActuationCause;
import dev.rayscale.events.GroupActuation;
import dev.rayscale.events.PodDeletion;
import dev.rayscale.events.ScaleDecision;
import java.util.List;
import java.util.Set;

/**
 * How one decision's actuation ended, as data: the shell records its notices, tells the GCS when the decision is in
 * force, and publishes it as an {@code ActuationResult} with an id and the times.
 *
 * @param resourceVersionBefore the RayCluster's version as read (null if it was not read)
 * @param resourceVersionAfter its version after the patch (null if nothing was patched)
 * @param attempts patch requests sent
 */
public record Ending(ActuationCause cause, String reason, String resourceVersionBefore, String resourceVersionAfter,
        List<GroupActuation> groups, int attempts, boolean dryRun, List<Notice> notices) {

    private static final Set<ActuationCause> IN_FORCE = Set.of(ActuationCause.PATCHED, ActuationCause.DRAINED_PODS_REMOVED,
            ActuationCause.ALREADY_MATCHES, ActuationCause.DRAINS_REFUSED);

    public Ending {
        groups = List.copyOf(groups);
        notices = List.copyOf(notices);
    }

    /** Ended before the RayCluster was read, or because it could not be. */
    public static Ending unread(ActuationCause cause, String reason) {
        return new Ending(cause, reason, null, null, List.of(), 0, false, List.of());
    }

    /** Ended by the verdict on the RayCluster as read: applied already, or stale (a warning unless merely superseded). */
    static Ending judged(ScaleDecision decision, Verdict verdict, String resourceVersion) {
        if (verdict instanceof Verdict.Withheld stale) {
            List<Notice> notices = stale.superseded() ? List.of() : List.of(Notice.staleDecision(decision, stale.reason()));
            return new Ending(stale.cause(), stale.reason(), resourceVersion, null, List.of(), 0, false, notices);
        }
        String reason = ((Verdict.AlreadyApplied) verdict).reason();
        return new Ending(ActuationCause.ALREADY_APPLIED, reason, resourceVersion, null, List.of(), 0, false, List.of());
    }

    /** Ended once the drains settled, with nothing written. */
    static Ending unwritten(ActuationCause cause, String reason, ActuationPlan plan, boolean applies, boolean dryRun,
            List<Notice> notices) {
        return new Ending(cause, reason, plan.cluster().resourceVersion(), null, plan.results(applies), 0, dryRun, notices);
    }

    /** The patch landed, as {@code resourceVersionAfter}; {@code history} tells of attempts that seemed to fail. */
    public static Ending patched(ScaleDecision decision, ActuationPlan plan, String before, String after, int attempts,
            String history) {
        return new Ending(ActuationCause.PATCHED, history + plan.summary(), before, after, plan.results(true), attempts, false,
                Notice.changes(decision, plan, false));
    }

    public static Ending patchRefused(ActuationPlan plan, String before, int attempts, String message) {
        return new Ending(ActuationCause.PATCH_REFUSED, "the API server refused the patch: " + message, before, null,
                plan.results(false), attempts, false, List.of());
    }

    /** No attempt landed: the RayCluster changed meanwhile ({@code conflicted}), or no answer was clear. */
    public static Ending notWritten(ScaleDecision decision, ActuationPlan plan, String before, int attempts, boolean conflicted,
            String message) {
        String drained = plan.drainedAny() ? "; drained and not removed: " + plan.groups().stream()
                .flatMap(group -> group.drained().stream()).map(PodDeletion::podName).toList() : "";
        if (conflicted) {
            Notice warning = Notice.staleDecision(decision, "the RayCluster changed meanwhile (" + message + ")" + drained);
            return new Ending(ActuationCause.CONCURRENT_CHANGE, "compare-and-set failed: " + message + drained, before, null,
                    plan.results(false), attempts, false, List.of(warning));
        }
        return new Ending(ActuationCause.PATCH_UNANSWERED, "patch failed after " + attempts + " attempt(s): " + message + drained,
                before, null, plan.results(false), attempts, false, List.of());
    }

    /** The same ending told as another cause: how a write that only finished an expired decision's removals says so. */
    Ending as(ActuationCause cause, String reason) {
        return new Ending(cause, reason, resourceVersionBefore, resourceVersionAfter, groups, attempts, dryRun, notices);
    }

    /** Whether the decision now holds on the cluster (patched, or already matching): then the GCS is told what it says. */
    public boolean inForce() {
        return !dryRun && IN_FORCE.contains(cause);
    }

    /** Whether a patch landed. */
    public boolean patched() {
        return resourceVersionAfter != null;
    }
}
