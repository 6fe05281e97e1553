package dev.rayscale.planner.core;

import dev.rayscale.events.ClusterSnapshot;
import dev.rayscale.events.DecisionMode;
import dev.rayscale.events.Reason;
import dev.rayscale.events.ReasonCode;
import dev.rayscale.events.ScaleDecision;
import dev.rayscale.events.SourceStatus;
import dev.rayscale.events.Support;
import dev.rayscale.events.WorkerGroup;

/**
 * The scaling planner: one cluster snapshot in, one scale decision out. Pure and deterministic: it
 * reads no clock (its "now" is the snapshot's observedAt) and does no I/O, so the same snapshot and
 * settings always give the same decision, ties included, and replaying the snapshot topic
 * reproduces every decision.
 *
 * <p>The steps follow Ray's autoscaler (python/ray/autoscaler/v2/scheduler.py), in its order:
 * <ol>
 *   <li>change nothing on a cluster whose Ray or KubeRay Rayscale cannot serve safely (the snapshot's versions);</li>
 *   <li>hold the current size if the Ray or Kubernetes state is unknown (minReplicas still apply);</li>
 *   <li>minReplicas (KubeRay creates them from the clamped replicas), then maxReplicas and the
 *       cluster-wide worker cap, shrinking by pods not yet running and idle nodes only;</li>
 *   <li>pods waiting too long for a node are reported, and replaced if the policy says so;</li>
 *   <li>{@code request_resources} constraints against total capacity, all or nothing;</li>
 *   <li>placement groups, each all or nothing;</li>
 *   <li>tasks and actors, onto the best-scoring existing or pending node in turn, then new nodes chosen
 *       by Ray's score, held to the upscaling limits; with economical packing, the new nodes made
 *       cheaper where the same demand fits;</li>
 *   <li>idle replicas past their timeout, longest idle first, down to minReplicas, unless the cluster's versions allow no
 *       safe scale-down (then nothing is removed, neither above maxReplicas nor idle);</li>
 *   <li>replicas whose pods cannot be created are given back once no demand waits for them.</li>
 * </ol>
 * See {@link Packer} for the packing itself.
 */
public final class Planner {

    private final PlannerSettings settings;

    public Planner(PlannerSettings settings) {
        this.settings = settings;
    }

    public PlannerSettings settings() {
        return settings;
    }

    public ScaleDecision plan(ClusterSnapshot snapshot) {
        EffectivePolicy policy = EffectivePolicy.of(snapshot.policy(), settings);
        Plan plan = Plan.of(snapshot, policy);
        Reason hold = holdReason(snapshot);
        boolean unsupported = snapshot.support() == Support.UNSUPPORTED;
        String notReconciled = notReconciled(snapshot);
        DecisionMode mode = policy.suspended() || unsupported || notReconciled != null ? DecisionMode.FROZEN
                : hold != null ? DecisionMode.HOLD : DecisionMode.ACTIVE;
        if (notReconciled != null) {
            plan.because(ReasonCode.SPEC_NOT_RECONCILED, "KubeRay is not acting on the RayCluster's spec, so replicas written now would "
                    + "change nothing, not even up to minReplicas: no change (" + notReconciled + ")");
        } else if (unsupported) {
            plan.because(ReasonCode.VERSION_UNSUPPORTED, "Rayscale cannot serve this cluster's versions safely, so it changes nothing: "
                    + String.join("; ", snapshot.versions().limits()));
        } else if (mode == DecisionMode.FROZEN) {
            plan.because(ReasonCode.SUSPENDED, "the cluster is suspended: no change");
        } else if (mode == DecisionMode.HOLD) {
            plan.reasons.add(hold);
        } else {
            Packer packer = new Packer(plan);
            boolean scaleDownSafe = snapshot.support() == Support.FULL;
            if (scaleDownSafe) {
                OverCapacity.apply(plan);
            }
            StuckPods.apply(plan);
            ConstraintPlacement.apply(plan, packer);
            GangPlacement.apply(plan, packer);
            TaskPlacement.apply(plan, packer);
            if (scaleDownSafe) {
                IdleScaleDown.apply(plan);
            } else {
                plan.because(ReasonCode.SCALE_DOWN_UNSAFE, "capacity is added but none removed: "
                        + String.join("; ", snapshot.versions().limits()));
            }
            FailedLaunches.apply(plan);
        }
        return DecisionWriter.write(plan, mode, settings);
    }

    /**
     * Why KubeRay is not acting on the cluster's spec, or null: the collector found its observed generation behind for long,
     * or a group's bounds are ones KubeRay 1.6+ refuses outright (minReplicas above maxReplicas: {@code
     * ValidateRayClusterSpec} stops the whole reconcile; older releases clamp to maxReplicas, and no target is sane then).
     */
    private static String notReconciled(ClusterSnapshot snapshot) {
        for (WorkerGroup group : snapshot.workerGroups()) {
            if (group.minReplicas() > group.maxReplicas()) {
                return "worker group " + group.name() + " has minReplicas " + group.minReplicas() + " greater than maxReplicas "
                        + group.maxReplicas() + ": KubeRay 1.6 and later refuse such a spec and act on none of it";
            }
        }
        return snapshot.sources().kubernetes().notReconciled();
    }

    /** Why the snapshot cannot be trusted to scale on, or null if it can. Unknown is not zero. */
    private static Reason holdReason(ClusterSnapshot snapshot) {
        if (!snapshot.hasRayState()) {
            return Reason.ofCluster(ReasonCode.GCS_UNREADABLE,
                    "holding the current size: the Ray GCS could not be read (" + snapshot.sources().gcs().error() + ")");
        }
        if (snapshot.sources().kubernetes().status() != SourceStatus.OK) {
            return Reason.ofCluster(ReasonCode.KUBERNETES_UNRELIABLE, "holding the current size: the Kubernetes view is "
                    + snapshot.sources().kubernetes().status().name().toLowerCase() + " (" + snapshot.sources().kubernetes().error() + ")");
        }
        return null;
    }
}
