package dev.rayscale.actuator;

import dev.rayscale.actuator.core.ActuationPlan;
import dev.rayscale.actuator.core.AppliedMark;
import dev.rayscale.actuator.core.GroupPlan;
import dev.rayscale.actuator.core.ObservedCluster;
import dev.rayscale.actuator.core.Patches;
import dev.rayscale.actuator.core.Verdict;
import dev.rayscale.clients.ClusterEvents;
import dev.rayscale.events.ActuationCause;
import dev.rayscale.events.ActuationResult;
import dev.rayscale.events.DrainRejection;
import dev.rayscale.events.InfeasibleDemand;
import dev.rayscale.events.Outcome;
import dev.rayscale.events.PodDeletion;
import dev.rayscale.events.ScaleDecision;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;
import org.jboss.logging.Logger;

/**
 * Applies one decision to its RayCluster, safely, and says what happened. The steps, each once:
 * <ol>
 *   <li><b>observe</b>: the RayCluster (and its pods and the GCS's live nodes when pods are to go);</li>
 *   <li><b>judge</b> ({@link Verdict}): STALE if expired, superseded, re-created or changed since the
 *       snapshot; NOOP if this very decision was applied already;</li>
 *   <li><b>plan</b> ({@link ActuationPlan}): what to drain and what to patch;</li>
 *   <li><b>drain</b> through the GCS, then <b>settle</b>: only accepted drains of the nodes the decision
 *       named are deleted; a second GCS read keeps back any pod in which a new raylet appeared;</li>
 *   <li><b>write</b> one compare-and-set JSON Patch; if the answer is lost, read the applied-decision mark
 *       before trying again; if drained pods are left unremoved by a conflict, or the decision expired
 *       while its drains ran, finish their removal with a fresh compare-and-set;</li>
 *   <li><b>report</b> to the GCS and record Kubernetes Events, then return the result.</li>
 * </ol>
 */
@ApplicationScoped
public class ActuationService {

    private static final Logger LOG = Logger.getLogger(ActuationService.class);

    private final ClusterApi api;
    private final RayGcs gcs;
    private final ClusterEvents events;
    private final ActuatorConfig config;
    private final ActuatorMetrics metrics;
    private final Clock clock;

    public ActuationService(ClusterApi api, RayGcs gcs, KubernetesClient kubernetes, ActuatorConfig config, ActuatorMetrics metrics) {
        this.api = api;
        this.gcs = gcs;
        this.events = new ClusterEvents(kubernetes, "rayscale-k8s-actuator");
        this.config = config;
        this.metrics = metrics;
        this.clock = Clock.systemUTC();
    }

    public ActuationResult apply(ScaleDecision decision) {
        return apply(decision, null);
    }

    /**
     * Applies {@code decision} unless {@code newer}, a decision for the same cluster from a newer snapshot
     * delivered with it (null if none), supersedes it: then it is STALE at once, with no API call.
     */
    public ActuationResult apply(ScaleDecision decision, ScaleDecision newer) {
        Instant received = clock.instant();
        ActuationResult result;
        try {
            result = actuate(decision, newer, received);
        } catch (KubernetesClientException e) {
            result = result(decision, received, ActuationCause.API_FAILED, "the Kubernetes API failed: "
                    + ClusterApi.describe(e), null, null, List.of(), 0, false);
        }
        metrics.outcome(decision.cluster().id(), result.cause());
        LOG.infof("%s: decision %s (snapshot %d): %s — %s", decision.cluster().id(), decision.id(), decision.snapshotSequence(),
                result.outcome(), result.reason());
        return result;
    }

    private ActuationResult actuate(ScaleDecision decision, ScaleDecision newer, Instant received) {
        if (Verdict.beforeReading(decision, newer, received) instanceof Verdict.Stale stale) {
            return result(decision, received, stale.cause(), stale.reason(), null, null, List.of(), 0, false);
        }
        boolean deletes = decision.groups().stream().anyMatch(group -> !group.toDelete().isEmpty() || !group.currentWorkersToDelete().isEmpty());
        ClusterApi.Observation observed = observe(decision, deletes);
        if (observed == null) {
            return result(decision, received, ActuationCause.CLUSTER_DELETED, "the RayCluster no longer exists", null, null,
                    List.of(), 0, false);
        }
        ObservedCluster cluster = observed.view();
        Verdict verdict = Verdict.of(decision, cluster, clock.instant());
        if (verdict instanceof Verdict.AlreadyApplied already) {
            return result(decision, received, ActuationCause.ALREADY_APPLIED, already.reason(), cluster.resourceVersion(), null,
                    List.of(), 0, false);
        }
        if (verdict instanceof Verdict.Stale stale) {
            if (!stale.superseded()) {
                events.record(observed.cluster(), ClusterEvents.Type.Warning, "StaleDecision",
                        "decision " + decision.id() + " not applied: " + stale.reason());
            }
            return result(decision, received, stale.cause(), stale.reason(), cluster.resourceVersion(), null, List.of(), 0,
                    false);
        }
        boolean dryRun = config.dryRun() || cluster.dryRun();
        ActuationPlan plan = ActuationPlan.of(decision, cluster);
        List<PodDeletion> toDrain = plan.toDrain();
        Map<String, String> refusals = dryRun || toDrain.isEmpty() ? Map.of() : gcs.drain(observed.cluster(), toDrain, decision.id());
        metrics.drains(toDrain.size() - refusals.size(), refusals.size());
        plan.settle(refusals);
        if (!dryRun && plan.drainedAny()) {
            Map<String, List<String>> after = gcs.liveNodes(observed.cluster());
            if (after != null) {
                plan.recheck(after);
            }
        }
        reportRefusals(observed, decision, plan.rejections(), dryRun);
        if (!plan.changes()) {
            reportToGcs(observed, decision, dryRun);
            boolean refused = plan.refusedAny();
            return result(decision, received, refused ? ActuationCause.DRAINS_REFUSED : ActuationCause.ALREADY_MATCHES,
                    refused ? "nothing left to change: every removal it asked for was refused" : "the RayCluster already matches",
                    cluster.resourceVersion(), null, plan.results(false), 0, dryRun);
        }
        if (dryRun) {
            recordChanges(observed, decision, plan, true);
            return result(decision, received, ActuationCause.DRY_RUN, "dry run, not patched: " + plan.summary(),
                    cluster.resourceVersion(), null, plan.results(true), 0, true);
        }
        if (clock.instant().isAfter(decision.expiresAt())) {
            return finishAfterExpiry(decision, received, observed, plan);
        }
        return write(decision, received, observed, plan);
    }

    private ClusterApi.Observation observe(ScaleDecision decision, boolean withPods) {
        ClusterApi.Observation observed = api.observe(decision.cluster().namespace(), decision.cluster().name(), withPods);
        boolean namesNodes = decision.groups().stream().flatMap(group -> group.toDelete().stream()).anyMatch(d -> d.nodeId() != null);
        if (observed == null || !namesNodes) {
            return observed;
        }
        return new ClusterApi.Observation(observed.cluster(), observed.view().withLiveNodes(gcs.liveNodes(observed.cluster())));
    }

    /** The decision expired while its drains ran: only the removal of what Ray drained is still done. */
    private ActuationResult finishAfterExpiry(ScaleDecision decision, Instant received, ClusterApi.Observation observed, ActuationPlan plan) {
        String reason = "expired at " + decision.expiresAt() + " while its drains ran";
        if (!plan.drainedAny()) {
            return result(decision, received, ActuationCause.EXPIRED, reason, observed.view().resourceVersion(), null,
                    plan.results(false), 0, false);
        }
        ActuationResult finished = write(decision, received, observed, ActuationPlan.finishing(plan, observed.view()));
        return finished.outcome() == Outcome.APPLIED ? withCause(finished, ActuationCause.DRAINED_PODS_REMOVED,
                reason + "; only the drained pods were removed: " + finished.reason()) : finished;
    }

    /**
     * Writes the plan with compare-and-set, at most {@code patch-attempts} times: after a lost answer
     * the mark says whether it landed; after a conflict only drained pods are still worth removing.
     */
    private ActuationResult write(ScaleDecision decision, Instant received, ClusterApi.Observation observed, ActuationPlan plan) {
        AppliedMark mark = AppliedMark.of(decision);
        String before = observed.view().resourceVersion();
        ClusterApi.Observation current = observed;
        ActuationPlan attempt = plan;
        String history = "";
        for (int attempts = 1; ; attempts++) {
            ObservedCluster view = current.view();
            ClusterApi.PatchOutcome outcome = api.patch(view.namespace(), view.name(), Patches.build(attempt, mark));
            if (outcome instanceof ClusterApi.PatchOutcome.Applied applied) {
                return applied(decision, received, current, attempt, before, applied.resourceVersion(), attempts, history);
            }
            if (outcome instanceof ClusterApi.PatchOutcome.Refused refused) {
                return result(decision, received, ActuationCause.PATCH_REFUSED, "the API server refused the patch: "
                        + refused.message(), before, null, attempt.results(false), attempts, false);
            }
            String message = outcome instanceof ClusterApi.PatchOutcome.Conflict conflict ? conflict.message()
                    : ((ClusterApi.PatchOutcome.Unknown) outcome).message();
            boolean conflicted = outcome instanceof ClusterApi.PatchOutcome.Conflict;
            if (!conflicted) {
                LOG.warnf("%s: patch attempt %d got no clear answer (%s); reading the RayCluster to see whether it landed",
                        decision.cluster().id(), attempts, message);
                api.pause(attempts);
            }
            ClusterApi.Observation reread = api.observe(view.namespace(), view.name(), true);
            if (reread != null && reread.view().mark().names(decision)) {
                return applied(decision, received, reread, attempt, before, reread.view().resourceVersion(), attempts,
                        history + "attempt " + attempts + " was answered \"" + message + "\" but had landed; ");
            }
            if (attempts >= Math.max(1, config.patchAttempts()) || reread == null) {
                return unwritten(decision, received, observed, attempt, before, attempts, conflicted, message);
            }
            if (conflicted) {
                if (!attempt.drainedAny()) {
                    return unwritten(decision, received, observed, attempt, before, attempts, true, message);
                }
                attempt = ActuationPlan.finishing(attempt, reread.view().withLiveNodes(gcs.liveNodes(reread.cluster())));
                history += "attempt " + attempts + " conflicted (" + message + "); finishing the removal of the drained pods; ";
            }
            current = reread;
        }
    }

    private ActuationResult applied(ScaleDecision decision, Instant received, ClusterApi.Observation observed, ActuationPlan plan,
            String before, String after, int attempts, String history) {
        metrics.patched(Duration.between(decision.decidedAt(), clock.instant()));
        recordChanges(observed, decision, plan, false);
        reportToGcs(observed, decision, false);
        return result(decision, received, ActuationCause.PATCHED, history + plan.summary(), before, after,
                plan.results(true), attempts, false);
    }

    private ActuationResult unwritten(ScaleDecision decision, Instant received, ClusterApi.Observation observed, ActuationPlan plan,
            String before, int attempts, boolean conflicted, String message) {
        String drained = plan.drainedAny() ? "; drained and not removed: " + plan.groups().stream()
                .flatMap(group -> group.drained().stream()).map(PodDeletion::podName).toList() : "";
        if (conflicted) {
            events.record(observed.cluster(), ClusterEvents.Type.Warning, "StaleDecision",
                    "decision " + decision.id() + " not applied: the RayCluster changed meanwhile (" + message + ")" + drained);
            return result(decision, received, ActuationCause.CONCURRENT_CHANGE, "compare-and-set failed: " + message
                    + drained, before, null, plan.results(false), attempts, false);
        }
        return result(decision, received, ActuationCause.PATCH_UNANSWERED, "patch failed after " + attempts
                + " attempt(s): " + message + drained, before, null, plan.results(false), attempts, false);
    }

    private void recordChanges(ClusterApi.Observation observed, ScaleDecision decision, ActuationPlan plan, boolean dryRun) {
        String prefix = dryRun ? "(dry run) " : "";
        for (GroupPlan group : plan.groups()) {
            if (!group.changes()) {
                continue;
            }
            int before = group.replicasBefore();
            int after = group.replicasAfter();
            if (after > before) {
                events.record(observed.cluster(), ClusterEvents.Type.Normal, "ScaledUp", prefix + group.name() + ": replicas " + before
                        + " -> " + after + " (decision " + decision.id() + ")");
            } else if (!group.acceptedPods().isEmpty() || after < before) {
                events.record(observed.cluster(), ClusterEvents.Type.Normal, "ScaledDown", prefix + group.name() + ": replicas " + before
                        + " -> " + after + (group.acceptedPods().isEmpty() ? "" : ", removing " + String.join(", ", group.acceptedPods()))
                        + " (decision " + decision.id() + ")");
            }
        }
        if (!decision.infeasible().isEmpty()) {
            events.record(observed.cluster(), ClusterEvents.Type.Warning, "InfeasibleDemand", prefix + decision.infeasible().stream()
                    .map(ActuationService::describe).collect(Collectors.joining("; ")) + " (decision " + decision.id() + ")");
        }
    }

    private void reportRefusals(ClusterApi.Observation observed, ScaleDecision decision, List<DrainRejection> rejections, boolean dryRun) {
        for (DrainRejection rejection : rejections) {
            events.record(observed.cluster(), ClusterEvents.Type.Warning, "DrainRejected", (dryRun ? "(dry run) " : "") + "kept "
                    + rejection.podName() + ": " + rejection.reason() + " (decision " + decision.id() + ")");
        }
    }

    /** Tells the GCS what this decision says, so that {@code ray status} shows it, also when nothing was patched. */
    private void reportToGcs(ClusterApi.Observation observed, ScaleDecision decision, boolean dryRun) {
        if (!config.gcs().report() || dryRun) {
            return;
        }
        try {
            gcs.report(observed.cluster(), decision);
        } catch (RuntimeException e) {
            LOG.warnf("%s: could not report the autoscaling state to the GCS: %s", decision.cluster().id(), e.getMessage());
        }
    }

    private static String describe(InfeasibleDemand infeasible) {
        return switch (infeasible.kind()) {
            case TASK -> infeasible.count() + " task(s) of " + infeasible.shape() + ": " + infeasible.reason();
            case GANG -> "placement group " + infeasible.gangId() + ": " + infeasible.reason();
            case CONSTRAINT -> "request_resources: " + infeasible.reason();
        };
    }

    private static ActuationResult withCause(ActuationResult result, ActuationCause cause, String reason) {
        return new ActuationResult(result.schemaVersion(), result.id(), result.cluster(), result.decisionId(), result.snapshotId(),
                result.outcome(), reason, cause, result.resourceVersionBefore(), result.resourceVersionAfter(), result.groups(),
                result.receivedAt(), result.completedAt(), result.attempts(), result.dryRun());
    }

    private ActuationResult result(ScaleDecision decision, Instant received, ActuationCause cause, String reason,
            String before, String after, List<dev.rayscale.events.GroupActuation> groups, int attempts, boolean dryRun) {
        return new ActuationResult(ActuationResult.SCHEMA_VERSION, UUID.randomUUID().toString(), decision.cluster(), decision.id(),
                decision.snapshotId(), cause.outcome(), reason, cause, before, after, groups, received, clock.instant(), attempts, dryRun);
    }
}
