package dev.rayscale.sim;

/**
 * The simulated cluster at one moment.
 *
 * @param seconds simulated seconds since the workload started
 * @param pendingTasks tasks Ray could not place yet
 * @param runningTasks tasks running
 * @param workerPods worker pods that exist
 * @param waitingPods worker pods not running yet (waiting for a node or starting)
 * @param registeredWorkers worker Ray nodes
 * @param busyWorkers worker Ray nodes running work
 */
public record Sample(double seconds, long pendingTasks, long runningTasks, int workerPods, int waitingPods, int registeredWorkers,
        int busyWorkers) {
}
