package dev.rayscale.demo;

import dev.rayscale.events.ActuationResult;
import dev.rayscale.events.Outcome;
import dev.rayscale.events.Resources;
import dev.rayscale.events.ScaleDecision;
import dev.rayscale.sim.ClusterSimulator;
import dev.rayscale.sim.RaySim;
import dev.rayscale.sim.Sample;
import dev.rayscale.sim.Workload;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * The figures of one run, in simulated seconds.
 *
 * @param timeToFirstPatchSeconds from the first demand to the first RayCluster patch
 * @param timeToCapacitySeconds from the first demand until no submitted task waits for a node
 * @param workerSeconds worker nodes alive, integrated over time
 * @param idealWorkerSeconds what the work itself needs: each task's duration times the share of a node it takes
 * @param busyDeletions pods deleted by anyone while their raylet ran work
 * @param gcsCrashes GCS processes a client's read made exit
 * @param operatorDeletions pods the KubeRay operator deleted by its own choice
 * @param forcedByLoss pods the operator deleted by its own choice, forced by the loss of a pod the last patch named after
 *     Rayscale read the pods for it (a race no client can close; {@link ClusterSimulator.Invariants}), and of them, how many
 *     ran work; counted in neither figure above
 * @param outcomes actuation results by outcome
 * @param appliedTwice decisions with more than one APPLIED result
 * @param lost decisions that got no result at all
 * @param deadLettered records the planner and the actuator set aside for this cluster, by poison kind (or by cause, for
 *     others); a record set aside twice (read again after a crash) counts once
 * @param poisonNotDeadLettered poison records that landed on a topic but not on a dead-letter topic with a reason
 * @param faults what each injected fault did
 */
public record Summary(
        int peakWorkers,
        int finalWorkers,
        long busyDeletions,
        long gcsCrashes,
        long operatorDeletions,
        ForcedByLoss forcedByLoss,
        double timeToFirstPatchSeconds,
        double timeToCapacitySeconds,
        double workerSeconds,
        double idealWorkerSeconds,
        int decisions,
        int patches,
        long drainsAccepted,
        long drainsRejected,
        long completedTasks,
        int infeasible,
        boolean settled,
        Map<Outcome, Integer> outcomes,
        int appliedTwice,
        int lost,
        Map<String, Integer> deadLettered,
        long poisonNotDeadLettered,
        List<FaultReport> faults) {

    static Summary of(Workload workload, List<Sample> samples, RaySim.Stats ray, ClusterSimulator.Invariants invariants,
            List<ScaleDecision> decisions, List<ActuationResult> actuations, List<AuditTrail.DeadLetter> deadLetters,
            double firstDemandAt, double firstPatchAt, boolean settled, List<FaultReport> faults, long poisonNotDeadLettered) {
        int peak = samples.stream().mapToInt(Sample::registeredWorkers).max().orElse(0);
        int last = samples.isEmpty() ? 0 : samples.get(samples.size() - 1).workerPods();
        double capacity = samples.stream().filter(s -> s.seconds() > firstDemandAt && s.pendingTasks() == 0 && s.runningTasks() > 0)
                .mapToDouble(Sample::seconds).findFirst().orElse(Double.NaN) - firstDemandAt;
        double workerSeconds = 0;
        for (int i = 1; i < samples.size(); i++) {
            workerSeconds += samples.get(i - 1).registeredWorkers() * (samples.get(i).seconds() - samples.get(i - 1).seconds());
        }
        long accepted = actuations.stream().filter(a -> a.outcome() == Outcome.APPLIED && !a.dryRun())
                .flatMap(a -> a.groups().stream()).mapToLong(g -> g.workersToDelete().size()).sum();
        long rejected = actuations.stream().flatMap(a -> a.groups().stream()).mapToLong(g -> g.drainRejected().size()).sum();
        int infeasible = decisions.isEmpty() ? 0 : decisions.get(decisions.size() - 1).infeasible().size();
        int patches = (int) actuations.stream().filter(a -> a.outcome() == Outcome.APPLIED && !a.dryRun()).count();
        Map<Outcome, Integer> outcomes = new EnumMap<>(Outcome.class);
        actuations.forEach(a -> outcomes.merge(a.outcome(), 1, Integer::sum));
        Map<String, Long> applied = actuations.stream().filter(a -> a.outcome() == Outcome.APPLIED && !a.dryRun())
                .collect(Collectors.groupingBy(ActuationResult::decisionId, Collectors.counting()));
        Set<String> answered = actuations.stream().map(ActuationResult::decisionId).collect(Collectors.toSet());
        Map<String, Integer> setAside = new TreeMap<>();
        // A record read again after a crash is set aside again: one record, counted once.
        Set<String> counted = new HashSet<>();
        deadLetters.stream().filter(letter -> counted.add(letter.topic() + "-" + letter.partition() + "@" + letter.offset()))
                .forEach(letter -> setAside.merge(letter.poisonKind() != null ? letter.poisonKind()
                : letter.cause() == null ? "unknown" : letter.cause().substring(letter.cause().lastIndexOf('.') + 1), 1, Integer::sum));
        return new Summary(peak, last, invariants.busyDeletions(), invariants.gcsCrashes(), invariants.operatorDeletions(),
                new ForcedByLoss(invariants.deletionsForcedByLoss(), invariants.busyDeletionsForcedByLoss()), firstPatchAt - firstDemandAt, capacity, workerSeconds,
                idealWorkerSeconds(workload), decisions.size(), patches, accepted, rejected, ray.completedTasks(), infeasible, settled,
                Map.copyOf(outcomes), (int) applied.values().stream().filter(n -> n > 1).count(),
                (int) decisions.stream().filter(d -> !answered.contains(d.id())).count(), Map.copyOf(setAside), poisonNotDeadLettered,
                List.copyOf(faults));
    }

    /** Pods the operator deleted forced by a loss no client could see in time, and how many of them ran work. */
    public record ForcedByLoss(long pods, long busy) {
    }

    /** Every record set aside. */
    public int deadLetteredTotal() {
        return deadLettered.values().stream().mapToInt(Integer::intValue).sum();
    }

    /**
     * True if the run survived its faults: nothing applied twice, no decision without a result, every poison
     * record set aside with a reason, and every fault struck and was caught up with.
     */
    public boolean faultsSurvived() {
        return appliedTwice == 0 && lost == 0 && poisonNotDeadLettered == 0 && faults.stream().allMatch(f -> f.struck() && f.recovered());
    }

    /** Task-seconds weighted by the share of the first group's node each task takes (its scarcest resource). */
    private static double idealWorkerSeconds(Workload workload) {
        double total = 0;
        for (Workload.Event event : workload.events()) {
            if (event.tasks() != null) {
                total += event.tasks().count() * event.tasks().seconds() * share(workload, Workload.resourcesOf(event.tasks().shape()));
            }
            if (event.placementGroup() != null) {
                for (var bundle : event.placementGroup().bundles()) {
                    total += event.placementGroup().seconds() * share(workload, Workload.resourcesOf(bundle));
                }
            }
        }
        return total;
    }

    private static double share(Workload workload, Resources shape) {
        for (Workload.Group group : workload.cluster().groups()) {
            Resources node = group.shape();
            if (shape.fitsIn(node)) {
                double share = 0;
                for (String name : shape.names()) {
                    share = Math.max(share, shape.get(name).toBigDecimal().doubleValue() / node.get(name).toBigDecimal().doubleValue());
                }
                return share;
            }
        }
        return 1;
    }

    /** The machine-readable last line of {@code ./rayscale demo}; a time never reached is -1. */
    public String line() {
        return String.format(Locale.ROOT, "demo: peak_workers=%d final_workers=%d busy_deletions=%d time_to_capacity_s=%.0f gcs_crashes=%d "
                + "operator_deletions=%d applied_twice=%d lost=%d dlq=%d forced_by_loss=%d", peakWorkers, finalWorkers, busyDeletions,
                Double.isNaN(timeToCapacitySeconds) ? -1 : timeToCapacitySeconds, gcsCrashes, operatorDeletions, appliedTwice, lost,
                deadLetteredTotal(), forcedByLoss.pods());
    }

    /** True if no invariant was broken: no busy pod deleted, no GCS crashed, no pod chosen by the operator. */
    public boolean invariantsHeld() {
        return busyDeletions == 0 && gcsCrashes == 0 && operatorDeletions == 0;
    }
}
