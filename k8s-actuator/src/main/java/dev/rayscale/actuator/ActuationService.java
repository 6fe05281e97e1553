package dev.rayscale.actuator;

import dev.rayscale.actuator.core.Actuation;
import dev.rayscale.actuator.core.ActuationPlan;
import dev.rayscale.actuator.core.Ending;
import dev.rayscale.actuator.core.LastWrite;
import dev.rayscale.actuator.core.LiveNodes;
import dev.rayscale.actuator.core.Notice;
import dev.rayscale.actuator.core.ObservedCluster;
import dev.rayscale.events.ActuationCause;
import dev.rayscale.events.ActuationResult;
import dev.rayscale.events.PodDeletion;
import dev.rayscale.events.ScaleDecision;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.ray.v1.RayCluster;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.jboss.logging.Logger;

/**
 * Applies one decision to its RayCluster, safely, and says what happened. The shell around the pure
 * {@link Actuation}; its steps, each once:
 * <ol>
 *   <li><b>observe</b>: the RayCluster (and its pods when replicas drop, and the GCS's live nodes when named nodes go);
 *       or, for a decision that names no pod and lowers no replicas, on a cluster this actuator wrote last, nothing:
 *       its plan is judged on the RayCluster that write left and written with tests that its spec and annotations are
 *       still so ({@link Actuation#unreadWrite}), and observed as below only if they are not;</li>
 *   <li><b>stand back</b> ({@link OtherWriters}): a change another writer made to replicas or workersToDelete is told on
 *       the cluster; while Rayscale holds for such a writer, the decision is REJECTED and nothing is written;</li>
 *   <li><b>judge</b> ({@link Actuation#judge}): STALE if expired, superseded, re-created or changed since the
 *       snapshot (a decision made before this actuator's last write to the cluster changed what it assumed is
 *       superseded before anything is read, {@link LastWrites}); NOOP if this very decision was applied already;
 *       otherwise the plan of what to drain and patch;</li>
 *   <li><b>drain</b> through the GCS, then <b>settle</b>: only accepted drains of the nodes the decision
 *       named are deleted; a second GCS read keeps back any pod in which a new raylet appeared;</li>
 *   <li><b>write</b> ({@link PatchWriter}) one compare-and-set JSON Patch, unless {@link Actuation#afterDrains}
 *       finds nothing to write;</li>
 *   <li><b>keep a RayService in step</b> ({@link RayServices}): after a write to a cluster a RayService owns, its
 *       {@code rayClusterConfig} gets the same replicas, so that KubeRay's rebuild of the cluster keeps its pods;</li>
 *   <li><b>report</b> the {@link Ending}: metrics and the result; Kubernetes Events and, when the decision is in force,
 *       the GCS are told off the decision's path ({@link ClusterReports}).</li>
 * </ol>
 */
@ApplicationScoped
public class ActuationService {

    private static final Logger LOG = Logger.getLogger(ActuationService.class);

    private final ClusterApi api;
    private final RayGcs gcs;
    private final PatchWriter writer;
    private final LastWrites lastWrites;
    private final OtherWriters otherWriters;
    private final RayServices rayServices;
    private final ClusterReports reports;
    private final ActuatorConfig config;
    private final ActuatorMetrics metrics;
    private final Clock clock;

    public ActuationService(ClusterApi api, RayGcs gcs, ClusterReports reports, ActuatorConfig config, ActuatorMetrics metrics) {
        this.api = api;
        this.gcs = gcs;
        this.clock = Clock.systemUTC();
        this.lastWrites = new LastWrites(clock);
        this.writer = new PatchWriter(api, gcs, lastWrites, config.patchAttempts());
        this.otherWriters = new OtherWriters(config.otherWriters(), metrics, reports);
        this.rayServices = new RayServices(api, reports, metrics);
        this.reports = reports;
        this.config = config;
        this.metrics = metrics;
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
        Ending ending;
        try {
            ending = actuate(decision, newer, received);
        } catch (KubernetesClientException e) {
            ending = Ending.unread(ActuationCause.API_FAILED, "the Kubernetes API failed: " + ClusterApi.describe(e));
        }
        ActuationResult result = new ActuationResult(ActuationResult.SCHEMA_VERSION, UUID.randomUUID().toString(),
                decision.cluster(), decision.id(), decision.snapshotId(), ending.cause().outcome(), ending.reason(), ending.cause(),
                ending.resourceVersionBefore(), ending.resourceVersionAfter(), ending.groups(), received, clock.instant(),
                ending.attempts(), ending.dryRun());
        metrics.outcome(decision.cluster().id(), result.cause());
        LOG.infof("%s: decision %s (snapshot %d): %s — %s", decision.cluster().id(), decision.id(), decision.snapshotSequence(),
                result.outcome(), result.reason());
        return result;
    }

    private Ending actuate(ScaleDecision decision, ScaleDecision newer, Instant received) {
        LastWrite lastWrite = lastWrites.to(decision);
        Optional<Ending> unread = Actuation.beforeReading(decision, newer, lastWrite, received);
        if (unread.isPresent()) {
            return unread.get();
        }
        Optional<Ending> holding = otherWriters.holding(decision, received);
        if (holding.isPresent()) {
            return holding.get();
        }
        Optional<ActuationPlan> unreadPlan = Actuation.unreadWrite(decision, lastWrite, clock.instant(), config.dryRun());
        Optional<PatchWriter.Unread> written = unreadPlan.flatMap(plan -> writer.writeUnread(decision, lastWrite, plan));
        metrics.unreadWrite(unreadPlan.isPresent(), written.isPresent());
        if (written.isPresent()) {
            wrote(decision, written.get().cluster());
            report(written.get().cluster(), decision, written.get().ending());
            return written.get().ending();
        }
        ClusterApi.Observation observed = observe(decision);
        if (observed == null) {
            lastWrites.forget(decision);
            otherWriters.forget(decision);
        } else {
            holding = otherWriters.read(observed, decision, clock.instant());
            if (holding.isPresent()) {
                report(observed.cluster(), decision, holding.get());
                return holding.get();
            }
        }
        Actuation.Next next = Actuation.judge(decision, observed == null ? null : observed.view(), clock.instant(), config.dryRun());
        if (next instanceof Actuation.Drain drain) {
            settle(observed, decision, drain, drain(observed, decision, drain));
            next = Actuation.afterDrains(decision, drain.plan(), drain.dryRun(), clock.instant());
        }
        Ending ending = next instanceof Actuation.Write write
                ? write.concluded(writer.write(decision, observed.view(), write.plan()))
                : ((Actuation.End) next).ending();
        if (ending.patched()) {
            wrote(decision, observed.cluster());
        }
        if (observed != null) {
            report(observed.cluster(), decision, ending);
        }
        return ending;
    }

    /** After a write to the decision's cluster: one more in a contest with another writer, and its RayService told. */
    private void wrote(ScaleDecision decision, RayCluster cluster) {
        otherWriters.wrote(decision);
        LastWrite written = lastWrites.to(decision);
        if (written != null) {
            rayServices.keepInStep(cluster, written.after().groups());
        }
    }

    private ClusterApi.Observation observe(ScaleDecision decision) {
        ClusterApi.Observation observed = api.observe(decision.cluster().namespace(), decision.cluster().name(),
                Actuation.readsPods(decision));
        if (observed == null || !Actuation.readsLiveNodes(decision)) {
            return observed;
        }
        return new ClusterApi.Observation(observed.cluster(), observed.view().withLiveNodes(gcs.liveNodes(observed.cluster())));
    }

    /** Ray's answers to the plan's drains, by pod: the refusals (none when nothing is drained). */
    private Map<String, String> drain(ClusterApi.Observation observed, ScaleDecision decision, Actuation.Drain drain) {
        List<PodDeletion> toDrain = drain.plan().toDrain();
        Map<String, String> refusals = drain.dryRun() || toDrain.isEmpty() ? Map.of()
                : gcs.drain(observed.cluster(), drain.plan().drainTurns(), decision.id());
        metrics.drains(toDrain.size() - refusals.size(), refusals.size());
        return refusals;
    }

    /**
     * Keeps what Ray refused, and any drained pod in which a new raylet has appeared since; says what was kept. After
     * drains, the pods are read again for the patch's floor ({@link ActuationPlan#podsNow}): the drains took time.
     */
    private void settle(ClusterApi.Observation observed, ScaleDecision decision, Actuation.Drain drain, Map<String, String> refusals) {
        ActuationPlan plan = drain.plan();
        plan.settle(refusals);
        if (!drain.dryRun() && plan.drainedAny()) {
            LiveNodes after = gcs.liveNodes(observed.cluster());
            if (after != null) {
                plan.recheck(after.byPod());
            }
            podsNow(decision).ifPresent(plan::podsNow);
        }
        reports.events(observed.cluster(), Notice.refusals(decision, plan.rejections(), drain.dryRun()));
    }

    /**
     * The pods as they are now, or empty if the API does not answer: then the patch's floor keeps the first read's pods,
     * and the drains Ray accepted are still written (their raylets have exited, fact A3.14). Only the pods are read: the
     * patch tests the RayCluster itself.
     */
    private Optional<Map<String, ObservedCluster.ObservedPod>> podsNow(ScaleDecision decision) {
        try {
            return Optional.of(api.pods(decision.cluster().namespace(), decision.cluster().name()));
        } catch (KubernetesClientException e) {
            LOG.warnf("%s: could not read the pods again after the drains (%s); the patch counts them as first read",
                    decision.cluster().id(), ClusterApi.describe(e));
            return Optional.empty();
        }
    }

    /** Hands the Events and, when the decision is in force, the GCS report (so that {@code ray status} shows it) to be sent. */
    private void report(RayCluster cluster, ScaleDecision decision, Ending ending) {
        if (ending.patched()) {
            metrics.patched(Duration.between(decision.decidedAt(), clock.instant()));
        }
        reports.events(cluster, ending.notices());
        if (ending.inForce()) {
            reports.gcs(cluster, decision);
        }
    }
}
