package dev.rayscale.tune;

import dev.rayscale.events.ClusterSnapshot;
import dev.rayscale.events.WorkerGroup;
import dev.rayscale.planner.core.NodeCost;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * One cluster's recording as the tuner keeps it: its first snapshot (the cluster's shape and recorded policy), its last
 * (the node costs in force), and a {@link Moment} per snapshot, small whatever the snapshot's size.
 */
final class RecordedCluster {

    private final MomentReader reader = new MomentReader(true);
    private final ActuationLag lag = new ActuationLag();
    /**
     * The moments where something changed, each with the last snapshot before the change (so that what changed between
     * two snapshots is read as changing there, not over the quiet time before): a week of a quiet cluster is mostly the same
     * moment again.
     */
    private final List<Moment> moments = new ArrayList<>();
    /** The last snapshot's moment, when it changed nothing. */
    private Moment unchanged;
    /** Every snapshot's time, in the recording's seconds: a replay observes its cluster when the recording did. */
    private double[] times = new double[1024];
    private int count;
    private ClusterSnapshot first;
    private long rayStates;
    private ClusterSnapshot last;

    void accept(ClusterSnapshot snapshot) {
        if (first == null) {
            first = snapshot;
        }
        last = snapshot;
        Moment moment = reader.read(snapshot);
        if (moment.rayState()) {
            rayStates++;
        }
        if (count == times.length) {
            times = Arrays.copyOf(times, count * 2);
        }
        times[count++] = moment.at();
        if (moments.isEmpty() || !sameState(moments.get(moments.size() - 1), moment)) {
            if (unchanged != null) {
                moments.add(unchanged);
            }
            moments.add(moment);
            unchanged = null;
        } else {
            unchanged = moment;
        }
    }

    private static boolean sameState(Moment a, Moment b) {
        return b.newPods() == 0 && a.rayState() == b.rayState() && a.pending().equals(b.pending()) && a.gangs().equals(b.gangs())
                && a.used().equals(b.used()) && a.constraints().equals(b.constraints()) && a.workers().equals(b.workers())
                && a.replicas().equals(b.replicas());
    }

    /** Snapshots with the GCS read: the only ones the work can be reconstructed from. */
    long rayStates() {
        return rayStates;
    }

    ActuationLag lag() {
        return lag;
    }

    /** From a snapshot to the patch that acted on it, in the cluster's seconds. */
    double actuationSeconds() {
        return lag.seconds() * clockRate();
    }

    ClusterSnapshot first() {
        return first;
    }

    /** The moments where something changed, and the last snapshot's, so that they span the recording. */
    List<Moment> moments() {
        if (unchanged == null) {
            return moments;
        }
        List<Moment> all = new ArrayList<>(moments);
        all.add(unchanged);
        return all;
    }

    double clockRate() {
        return reader.clockRate();
    }

    /** The recording's length in the cluster's seconds. */
    double seconds() {
        return reader.span() * clockRate();
    }

    List<MomentReader.Startup> startups() {
        return reader.startups();
    }

    /** When the snapshots were taken, in the cluster's seconds from the first. */
    double[] times() {
        double rate = clockRate();
        double[] seconds = new double[count];
        for (int i = 0; i < count; i++) {
            seconds[i] = times[i] * rate;
        }
        return seconds;
    }

    /**
     * The median time between two snapshots, in the cluster's seconds, and at least one (the GCS learns of work once a second):
     * the finest a wait can be told from the recording.
     */
    double resolution() {
        List<Double> gaps = new ArrayList<>();
        double[] seconds = times();
        for (int i = 1; i < seconds.length; i++) {
            gaps.add(seconds[i] - seconds[i - 1]);
        }
        return Math.max(1, Stats.median(gaps));
    }

    /** What one node of each group costs per hour, as the planner reads it. */
    Map<String, Double> nodeCosts() {
        Map<String, Double> costs = new TreeMap<>();
        for (WorkerGroup group : last.workerGroups()) {
            costs.put(group.name(), NodeCost.of(group).doubleValue());
        }
        return costs;
    }
}
