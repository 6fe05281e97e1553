package dev.rayscale.actuator;

import dev.rayscale.events.ActuationResult;
import dev.rayscale.events.DrainRejection;
import dev.rayscale.events.GroupActuation;
import dev.rayscale.events.GroupTarget;
import dev.rayscale.events.InfeasibleDemand;
import dev.rayscale.events.Outcome;
import dev.rayscale.events.ScaleDecision;
import dev.rayscale.kuberay.ClusterEvents;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.ray.v1.RayCluster;
import io.ray.v1.rayclusterspec.WorkerGroupSpecs;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;
import org.jboss.logging.Logger;

/**
 * Applies one decision to its RayCluster, safely, and says what happened:
 * <ol>
 *   <li>drop it (STALE) if expired, superseded by a newer applied decision, or based on RayCluster
 *       values that have changed; answer NOOP if this very decision was applied already;</li>
 *   <li>drain the nodes it wants removed through the GCS — only accepted drains are deleted;</li>
 *   <li>apply one compare-and-set JSON Patch (CONFLICT if someone changed the fields meanwhile);</li>
 *   <li>record Kubernetes Events, report to the GCS, return the result.</li>
 * </ol>
 */
@ApplicationScoped
public class ActuationService {

    static final String DRY_RUN_ANNOTATION = "rayscale.dev/dry-run";
    private static final Logger LOG = Logger.getLogger(ActuationService.class);

    private final ClusterApi api;
    private final RayGcs gcs;
    private final ClusterEvents events;
    private final ActuatorConfig config;
    private final ActuatorMetrics metrics;

    public ActuationService(ClusterApi api, RayGcs gcs, KubernetesClient kubernetes, ActuatorConfig config, ActuatorMetrics metrics) {
        this.api = api;
        this.gcs = gcs;
        this.events = new ClusterEvents(kubernetes, "rayscale-k8s-actuator");
        this.config = config;
        this.metrics = metrics;
    }

    public ActuationResult apply(ScaleDecision decision) {
        Instant received = Instant.now();
        ActuationResult result;
        try {
            result = decide(decision, received);
        } catch (KubernetesClientException e) {
            result = result(decision, received, Outcome.FAILED, "the Kubernetes API failed: " + ClusterApi.describe(e), null, null,
                    List.of(), 0, false);
        }
        metrics.outcome(result.outcome());
        LOG.infof("%s: decision %s (snapshot %d): %s — %s", decision.cluster().id(), decision.id(), decision.snapshotSequence(),
                result.outcome(), result.reason());
        return result;
    }

    private ActuationResult decide(ScaleDecision decision, Instant received) {
        Verdict verdict = Verdict.ofTime(decision, received);
        if (verdict instanceof Verdict.Stale stale) {
            return stale(decision, received, null, stale);
        }
        RayCluster cluster = api.get(decision.cluster().namespace(), decision.cluster().name());
        if (cluster == null) {
            return result(decision, received, Outcome.STALE, "the RayCluster no longer exists", null, null, List.of(), 0, false);
        }
        String before = cluster.getMetadata().getResourceVersion();
        verdict = Verdict.of(decision, cluster);
        if (verdict instanceof Verdict.AlreadyApplied already) {
            return result(decision, received, Outcome.NOOP, already.reason(), before, null, List.of(), 0, false);
        }
        if (verdict instanceof Verdict.Stale stale) {
            return stale(decision, received, cluster, stale);
        }
        boolean dryRun = config.dryRun() || "true".equalsIgnoreCase(annotation(cluster, DRY_RUN_ANNOTATION));
        List<GroupPlan> plans = plan(decision, cluster);
        List<dev.rayscale.events.PodDeletion> toDrain = plans.stream().flatMap(plan -> plan.toDrain.stream()).toList();
        Map<String, String> refusals = dryRun || toDrain.isEmpty() ? Map.of() : gcs.drain(cluster, toDrain, decision.id());
        metrics.drains(toDrain.size() - refusals.size(), refusals.size());
        plans.forEach(plan -> plan.settle(refusals));
        reportRefusals(cluster, decision, plans, dryRun);
        if (plans.stream().noneMatch(GroupPlan::changes)) {
            boolean refusedAll = plans.stream().anyMatch(plan -> !plan.rejected().isEmpty());
            return result(decision, received, refusedAll ? Outcome.REJECTED : Outcome.NOOP,
                    refusedAll ? "nothing left to change: every removal it asked for was refused" : "the RayCluster already matches",
                    before, null, groupResults(plans, false), 0, dryRun);
        }
        String summary = summary(plans);
        if (dryRun) {
            recordChanges(cluster, decision, plans, true);
            return result(decision, received, Outcome.APPLIED, "dry run, not patched: " + summary, before, null,
                    groupResults(plans, true), 0, true);
        }
        ClusterApi.PatchOutcome patch = api.patch(cluster.getMetadata().getNamespace(), cluster.getMetadata().getName(),
                Patches.build(cluster, plans, AppliedMark.of(decision)));
        if (patch instanceof ClusterApi.PatchOutcome.Conflict conflict) {
            events.record(cluster, ClusterEvents.Type.Warning, "StaleDecision",
                    "decision " + decision.id() + " not applied: the RayCluster changed meanwhile (" + conflict.message() + ")");
            return result(decision, received, Outcome.CONFLICT, "compare-and-set failed: " + conflict.message(), before, null,
                    groupResults(plans, false), conflict.attempts(), false);
        }
        if (patch instanceof ClusterApi.PatchOutcome.Failed failed) {
            return result(decision, received, Outcome.FAILED, "patch failed after " + failed.attempts() + " attempt(s): " + failed.message(),
                    before, null, groupResults(plans, false), failed.attempts(), false);
        }
        ClusterApi.PatchOutcome.Applied applied = (ClusterApi.PatchOutcome.Applied) patch;
        metrics.patched(Duration.between(decision.decidedAt(), Instant.now()));
        recordChanges(cluster, decision, plans, false);
        reportToGcs(cluster, decision);
        return result(decision, received, Outcome.APPLIED, summary, before, applied.resourceVersion(), groupResults(plans, true),
                applied.attempts(), false);
    }

    private List<GroupPlan> plan(ScaleDecision decision, RayCluster cluster) {
        boolean deletes = decision.groups().stream().anyMatch(group -> !group.toDelete().isEmpty()
                || !group.currentWorkersToDelete().isEmpty());
        Map<String, Pod> pods = deletes ? api.pods(cluster.getMetadata().getNamespace(), cluster.getMetadata().getName()) : Map.of();
        List<WorkerGroupSpecs> specs = cluster.getSpec().getWorkerGroupSpecs();
        List<GroupPlan> plans = new ArrayList<>();
        for (GroupTarget target : decision.groups()) {
            plans.add(GroupPlan.of(target.index(), specs.get(target.index()), target, pods, config.replicaLabel()));
        }
        return plans;
    }

    private ActuationResult stale(ScaleDecision decision, Instant received, RayCluster cluster, Verdict.Stale stale) {
        if (cluster != null && !stale.superseded()) {
            events.record(cluster, ClusterEvents.Type.Warning, "StaleDecision", "decision " + decision.id() + " not applied: " + stale.reason());
        }
        return result(decision, received, Outcome.STALE, stale.reason(),
                cluster == null ? null : cluster.getMetadata().getResourceVersion(), null, List.of(), 0, false);
    }

    private void recordChanges(RayCluster cluster, ScaleDecision decision, List<GroupPlan> plans, boolean dryRun) {
        String prefix = dryRun ? "(dry run) " : "";
        for (GroupPlan plan : plans) {
            if (!plan.changes()) {
                continue;
            }
            int before = plan.replicasBefore();
            int after = plan.replicasAfter();
            if (after > before) {
                events.record(cluster, ClusterEvents.Type.Normal, "ScaledUp", prefix + plan.name + ": replicas " + before + " -> " + after
                        + " (decision " + decision.id() + ")");
            } else if (!plan.acceptedPods().isEmpty() || after < before) {
                events.record(cluster, ClusterEvents.Type.Normal, "ScaledDown", prefix + plan.name + ": replicas " + before + " -> " + after
                        + (plan.acceptedPods().isEmpty() ? "" : ", removing " + String.join(", ", plan.acceptedPods()))
                        + " (decision " + decision.id() + ")");
            }
        }
        if (!decision.infeasible().isEmpty()) {
            events.record(cluster, ClusterEvents.Type.Warning, "InfeasibleDemand", prefix + decision.infeasible().stream()
                    .map(ActuationService::describe).collect(Collectors.joining("; ")) + " (decision " + decision.id() + ")");
        }
    }

    private void reportRefusals(RayCluster cluster, ScaleDecision decision, List<GroupPlan> plans, boolean dryRun) {
        for (GroupPlan plan : plans) {
            for (DrainRejection rejection : plan.rejected()) {
                events.record(cluster, ClusterEvents.Type.Warning, "DrainRejected", (dryRun ? "(dry run) " : "") + plan.name + ": kept "
                        + rejection.podName() + ": " + rejection.reason() + " (decision " + decision.id() + ")");
            }
        }
    }

    private void reportToGcs(RayCluster cluster, ScaleDecision decision) {
        if (!config.gcs().report()) {
            return;
        }
        try {
            gcs.report(cluster, decision);
        } catch (RuntimeException e) {
            LOG.warnf("%s: could not report the autoscaling state to the GCS: %s", decision.cluster().id(), e.getMessage());
        }
    }

    private static String summary(List<GroupPlan> plans) {
        return plans.stream().filter(GroupPlan::changes)
                .map(plan -> plan.name + " replicas " + plan.replicasBefore() + " -> " + plan.replicasAfter()
                        + (plan.acceptedPods().isEmpty() ? "" : ", workersToDelete " + plan.acceptedPods())
                        + (plan.rejected().isEmpty() ? "" : ", " + plan.rejected().size() + " kept"))
                .collect(Collectors.joining("; "));
    }

    private static List<GroupActuation> groupResults(List<GroupPlan> plans, boolean applied) {
        return plans.stream().filter(plan -> plan.changes() || !plan.rejected().isEmpty()).map(plan -> plan.result(applied)).toList();
    }

    private static String describe(InfeasibleDemand infeasible) {
        return switch (infeasible.kind()) {
            case TASK -> infeasible.count() + " task(s) of " + infeasible.shape() + ": " + infeasible.reason();
            case GANG -> "placement group " + infeasible.gangId() + ": " + infeasible.reason();
            case CONSTRAINT -> "request_resources: " + infeasible.reason();
        };
    }

    private static String annotation(RayCluster cluster, String name) {
        Map<String, String> annotations = cluster.getMetadata().getAnnotations();
        return annotations == null ? null : annotations.get(name);
    }

    private static ActuationResult result(ScaleDecision decision, Instant received, Outcome outcome, String reason, String before,
            String after, List<GroupActuation> groups, int attempts, boolean dryRun) {
        return new ActuationResult(ActuationResult.SCHEMA_VERSION, UUID.randomUUID().toString(), decision.cluster(), decision.id(),
                decision.snapshotId(), outcome, reason, before, after, groups, received, Instant.now(), attempts, dryRun);
    }
}
