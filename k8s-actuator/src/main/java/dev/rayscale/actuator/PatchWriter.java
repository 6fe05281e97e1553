package dev.rayscale.actuator;

import dev.rayscale.actuator.core.ActuationPlan;
import dev.rayscale.actuator.core.AppliedMark;
import dev.rayscale.actuator.core.Ending;
import dev.rayscale.actuator.core.LastWrite;
import dev.rayscale.actuator.core.ObservedCluster;
import dev.rayscale.actuator.core.Patches;
import dev.rayscale.actuator.core.Verdict;
import dev.rayscale.events.ScaleDecision;
import io.ray.v1.RayCluster;
import java.util.Optional;
import org.jboss.logging.Logger;

/**
 * Writes a plan to its RayCluster with compare-and-set, at most {@code patch-attempts} times. A patch is never
 * re-sent blindly: after a lost answer the applied-decision mark says whether it landed; after a conflict only the
 * pods Ray drained are still worth removing, with a fresh compare-and-set against the RayCluster as it is now.
 */
final class PatchWriter {

    private static final Logger LOG = Logger.getLogger(PatchWriter.class);

    private final ClusterApi api;
    private final RayGcs gcs;
    private final LastWrites lastWrites;
    private final int maxAttempts;

    PatchWriter(ClusterApi api, RayGcs gcs, LastWrites lastWrites, int maxAttempts) {
        this.api = api;
        this.gcs = gcs;
        this.lastWrites = lastWrites;
        this.maxAttempts = Math.max(1, maxAttempts);
    }

    /** A write made without reading the RayCluster first: the RayCluster it left, and how it ended. */
    record Unread(RayCluster cluster, Ending ending) {
    }

    /**
     * Writes {@code plan}, made on {@code lastWrite}'s RayCluster, in one attempt that tests the spec and annotations are
     * still as that write left them ({@link Patches#buildUnread}). Empty unless it landed: when they changed, or the
     * answer was unclear, nothing is concluded, and the decision is read and judged as any other (a patch that did land
     * unanswered is then found applied by its mark).
     */
    Optional<Unread> writeUnread(ScaleDecision decision, LastWrite lastWrite, ActuationPlan plan) {
        ObservedCluster cached = lastWrite.after();
        String patch = Patches.buildUnread(plan, AppliedMark.of(decision), lastWrite);
        ClusterApi.PatchOutcome outcome = api.patch(cached.namespace(), cached.name(), patch);
        if (!(outcome instanceof ClusterApi.PatchOutcome.Applied applied)) {
            LOG.debugf("%s: the RayCluster changed since this actuator's last write, or the write went unanswered (%s); reading it",
                    decision.cluster().id(), outcome);
            return Optional.empty();
        }
        ClusterApi.Observation written = applied.written();
        lastWrites.wrote(decision, written);
        return Optional.of(new Unread(written.cluster(), Ending.patched(decision, plan, null, written.view().resourceVersion(), 1,
                "unread (spec and annotations as this actuator last wrote them); ")));
    }

    Ending write(ScaleDecision decision, ObservedCluster observed, ActuationPlan plan) {
        AppliedMark mark = AppliedMark.of(decision);
        String before = observed.resourceVersion();
        ActuationPlan attempt = plan;
        String history = "";
        for (int attempts = 1; ; attempts++) {
            ClusterApi.PatchOutcome outcome = api.patch(observed.namespace(), observed.name(), Patches.build(attempt, mark));
            if (outcome instanceof ClusterApi.PatchOutcome.Applied applied) {
                lastWrites.wrote(decision, applied.written());
                return Ending.patched(decision, attempt, before, applied.written().view().resourceVersion(), attempts, history);
            }
            if (outcome instanceof ClusterApi.PatchOutcome.Refused refused) {
                return Ending.patchRefused(attempt, before, attempts, refused.message());
            }
            boolean conflicted = outcome instanceof ClusterApi.PatchOutcome.Conflict;
            String message = conflicted ? ((ClusterApi.PatchOutcome.Conflict) outcome).message()
                    : ((ClusterApi.PatchOutcome.Unknown) outcome).message();
            if (!conflicted) {
                LOG.warnf("%s: patch attempt %d got no clear answer (%s); reading the RayCluster to see whether it landed",
                        decision.cluster().id(), attempts, message);
                api.pause(attempts);
            }
            ClusterApi.Observation reread = api.observe(observed.namespace(), observed.name(), true);
            if (reread != null && reread.view().mark().names(decision)) {
                lastWrites.wrote(decision, reread);
                return Ending.patched(decision, attempt, before, reread.view().resourceVersion(), attempts,
                        history + "attempt " + attempts + " was answered \"" + message + "\" but had landed; ");
            }
            if (attempts >= maxAttempts || reread == null || (conflicted && !attempt.drainedAny())) {
                return Ending.notWritten(decision, attempt, before, attempts, conflicted, message);
            }
            if (conflicted) {
                Verdict.Withheld notOurs = Verdict.notOurs(decision, reread.view());
                if (notOurs != null) {
                    return Ending.notWritten(decision, attempt, before, attempts, true, message + "; then " + notOurs.reason());
                }
                attempt = ActuationPlan.finishing(attempt, reread.view().withLiveNodes(gcs.liveNodes(reread.cluster())));
                history += "attempt " + attempts + " conflicted (" + message + "); finishing the removal of the drained pods; ";
            }
        }
    }
}
