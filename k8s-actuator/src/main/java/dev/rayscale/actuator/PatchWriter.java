package dev.rayscale.actuator;

import dev.rayscale.actuator.core.ActuationPlan;
import dev.rayscale.actuator.core.AppliedMark;
import dev.rayscale.actuator.core.Ending;
import dev.rayscale.actuator.core.ObservedCluster;
import dev.rayscale.actuator.core.Patches;
import dev.rayscale.events.ScaleDecision;
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

    Ending write(ScaleDecision decision, ObservedCluster observed, ActuationPlan plan) {
        AppliedMark mark = AppliedMark.of(decision);
        String before = observed.resourceVersion();
        ActuationPlan attempt = plan;
        String history = "";
        for (int attempts = 1; ; attempts++) {
            ClusterApi.PatchOutcome outcome = api.patch(observed.namespace(), observed.name(), Patches.build(attempt, mark));
            if (outcome instanceof ClusterApi.PatchOutcome.Applied applied) {
                lastWrites.wrote(decision, applied.after());
                return Ending.patched(decision, attempt, before, applied.after().resourceVersion(), attempts, history);
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
                lastWrites.wrote(decision, reread.view());
                return Ending.patched(decision, attempt, before, reread.view().resourceVersion(), attempts,
                        history + "attempt " + attempts + " was answered \"" + message + "\" but had landed; ");
            }
            if (attempts >= maxAttempts || reread == null || (conflicted && !attempt.drainedAny())) {
                return Ending.notWritten(decision, attempt, before, attempts, conflicted, message);
            }
            if (conflicted) {
                attempt = ActuationPlan.finishing(attempt, reread.view().withLiveNodes(gcs.liveNodes(reread.cluster())));
                history += "attempt " + attempts + " conflicted (" + message + "); finishing the removal of the drained pods; ";
            }
        }
    }
}
