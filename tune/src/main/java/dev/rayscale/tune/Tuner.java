package dev.rayscale.tune;

import dev.rayscale.audit.PolicyOverrides;
import dev.rayscale.audit.Read;
import dev.rayscale.events.ActuationResult;
import dev.rayscale.events.ClusterSnapshot;
import dev.rayscale.events.RayscaleEvent;
import dev.rayscale.events.ScaleDecision;
import dev.rayscale.planner.core.PlannerSettings;
import dev.rayscale.sim.Workload;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.TreeMap;

/**
 * {@code rayscale tune}: reads a recording's snapshots, reconstructs each cluster's workload, calibrates its replay against
 * the recording, replays it under a grid of policies and recommends one by an {@link Objective}.
 */
public final class Tuner {

    /** The reconstruction's stretches tried, in order, while the recorded policy's replay is off by more than this. */
    private static final double GOOD_ENOUGH = 0.03;
    private static final double[] DURATION_SCALES = {0.95, 1.05, 0.9, 1.1};
    private static final double[] STARTUP_SCALES = {0.9, 1.1, 0.8, 1.2, 0.6, 1.5};

    private final List<PolicyGrid.Policy> grid;
    private final Objective objective;
    private final Map<String, RecordedCluster> clusters = new TreeMap<>();
    /** The clusters snapshots were read of; once there are two, only their names are kept (a tune is of one cluster). */
    private final Set<String> snapshotted = new TreeSet<>();

    /** @param grid as {@code --grid} takes it; empty for {@link PolicyGrid#DEFAULT} */
    public Tuner(List<String> grid, Objective objective) {
        this.grid = PolicyGrid.of(grid.isEmpty() ? PolicyGrid.DEFAULT : grid);
        this.objective = objective;
    }

    /** A record as the audit commands read it: its event if it is one (dead letters and unreadable records say nothing here). */
    public void read(Read read) {
        if (read instanceof Read.Snapshot snapshot) {
            accept(snapshot.full());
        } else if (read instanceof Read.Event event) {
            accept(event.event());
        }
    }

    /** A recorded event: snapshots, each cluster's in order, make the workload; decisions and results, the pipeline's lag. */
    public void accept(RayscaleEvent event) {
        if (event instanceof ClusterSnapshot && snapshotted.add(event.cluster().id()) && snapshotted.size() > 1) {
            clusters.clear();
        }
        if (snapshotted.size() > 1) {
            return;
        }
        RecordedCluster cluster = clusters.computeIfAbsent(event.cluster().id(), id -> new RecordedCluster());
        if (event instanceof ClusterSnapshot snapshot) {
            cluster.accept(snapshot);
        } else if (event instanceof ScaleDecision decision) {
            cluster.lag().decision(decision);
        } else if (event instanceof ActuationResult result) {
            cluster.lag().actuation(result);
        }
    }

    /** The clusters the recording holds snapshots of. */
    public List<String> clusters() {
        return List.copyOf(snapshotted);
    }

    public TuneReport tune(String cluster, PlannerSettings settings) {
        RecordedCluster recording = recording(cluster);
        // Every policy is tried on the first snapshot before anything is replayed: a value that makes no policy fails now.
        for (PolicyGrid.Policy policy : grid) {
            policy.overrides().apply(recording.first());
            policy.overrides().apply(settings);
        }
        double resolution = recording.resolution();
        double[] times = recording.times();
        RecordedPolicy recorded = new RecordedPolicy(recording.first());
        Map<String, Double> costs = recording.nodeCosts();
        PolicyGrid.Policy asRecorded = new PolicyGrid.Policy(List.of(), PolicyOverrides.parse(List.of()));
        Calibration calibration = calibrate((durationScale, startupScale) -> replay(recording, times, recorded, asRecorded, settings,
                resolution, costs, durationScale, startupScale));
        Reconstruction reconstruction = calibration.reconstruction();
        // Each policy's replay is a simulated cluster of its own, deterministic whatever runs beside it: one per core.
        List<Outcome> outcomes = grid.parallelStream().map(policy -> new Outcome(policy,
                ClosedLoop.run(reconstruction, times, recording.actuationSeconds(), recorded, policy.overrides(), settings, costs))).toList();
        return TuneReport.of(cluster, recording.clockRate(), recording.seconds(), resolution, calibration,
                new Outcome(asRecorded, calibration.replayed()), outcomes, objective);
    }

    /** The workload reconstructed from the cluster's recording, as it is before any calibration stretches it. */
    public Workload workload(String cluster) {
        return Reconstructor.of(recording(cluster), 1, 1).workload();
    }

    private RecordedCluster recording(String cluster) {
        if (snapshotted.size() > 1) {
            throw new IllegalArgumentException("the recording holds " + snapshotted.size() + " clusters; a tune reads one (--cluster)");
        }
        RecordedCluster recording = clusters.get(cluster);
        if (recording == null || recording.first() == null || recording.rayStates() < 2) {
            throw new IllegalArgumentException("the recording holds fewer than two snapshots of " + cluster + " with the GCS read: "
                    + "nothing to reconstruct its work from");
        }
        return recording;
    }

    /** The recorded policy replayed on the reconstruction, its estimates stretched by these. */
    private interface Trial {
        Calibration replayed(double durationScale, double startupScale);
    }

    /** The start-up stretches first, then the durations' with the best start-up, while the closest is more than 3% off. */
    private static Calibration calibrate(Trial trial) {
        Calibration best = trial.replayed(1, 1);
        for (double startupScale : STARTUP_SCALES) {
            if (best.error() > GOOD_ENOUGH) {
                best = best.closer(trial.replayed(1, startupScale));
            }
        }
        double startupScale = best.startupScale();
        for (double durationScale : DURATION_SCALES) {
            if (best.error() > GOOD_ENOUGH) {
                best = best.closer(trial.replayed(durationScale, startupScale));
            }
        }
        return best;
    }

    private static Calibration replay(RecordedCluster recording, double[] times, RecordedPolicy recorded, PolicyGrid.Policy asRecorded,
            PlannerSettings settings, double resolution, Map<String, Double> costs, double durationScale, double startupScale) {
        Reconstruction reconstruction = Reconstructor.of(recording, durationScale, startupScale);
        Figures recordedFigures = Figures.of(recording.moments(), recording.clockRate(), reconstruction.tasks(), costs);
        Figures replayed = ClosedLoop.run(reconstruction, times, recording.actuationSeconds(), recorded, asRecorded.overrides(), settings, costs);
        return Calibration.of(durationScale, startupScale, reconstruction, recordedFigures, replayed, resolution);
    }
}
