package dev.rayscale.tune;

import dev.rayscale.events.ClusterSnapshot;
import dev.rayscale.planner.core.PlannerSettings;
import dev.rayscale.sim.Workload;
import java.util.function.Consumer;

/**
 * A recording made without a cluster: a workload run on the simulated cluster under its own policy, observed every
 * {@code every} seconds, the planner in process acting on each snapshot at once. The bench's long histories and the tests'
 * recordings of known workloads are made so; a snapshot's {@code observedAt} counts the simulated time from the epoch.
 */
public final class SimulatedRecording {

    private SimulatedRecording() {
    }

    public static void of(Workload workload, double seconds, double every, PlannerSettings settings, Consumer<ClusterSnapshot> snapshots) {
        int count = (int) Math.floor(seconds / every) + 1;
        double[] times = new double[count];
        for (int i = 0; i < count; i++) {
            times[i] = i * every;
        }
        ClosedLoop.drive(workload, times, 0, snapshot -> snapshot, settings, snapshots);
    }
}
