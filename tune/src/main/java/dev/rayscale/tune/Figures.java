package dev.rayscale.tune;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * What a run of a cluster cost and how long its work waited, read from its snapshots alone, so that a recording and a
 * replay are measured by the same rule. Times are the cluster's own seconds.
 *
 * @param workerSeconds worker pods (Ray nodes with their pod, and pods not yet a Ray node) integrated over time
 * @param cost the same weighted by each group's node cost per hour ({@code rayscale.dev/node-cost}, else the planner's
 *     default from the group's resources)
 * @param waitP50 the median time a task or placement group waited, tasks that never waited counted as 0
 * @param tasks the tasks and placement groups the waits are of
 * @param coldStarts worker pods created
 * @param scaleEvents changes of a group's replicas from one snapshot to the next
 */
record Figures(double workerSeconds, double cost, double waitP50, double waitP95, double waitMax, long tasks, long coldStarts,
        long scaleEvents) {

    /**
     * @param rate the cluster's seconds per second of the moments' clock
     * @param tasks the work the run was given; what no snapshot saw pending waited 0
     */
    static Figures of(List<Moment> moments, double rate, long tasks, Map<String, Double> nodeCosts) {
        Tally tally = new Tally(rate, nodeCosts);
        moments.forEach(tally::add);
        return tally.figures(tasks);
    }

    /** The figures of moments told one at a time, in order: a replay's are counted as it runs, not kept. */
    static final class Tally {
        private final double rate;
        private final Map<String, Double> nodeCosts;
        private final Waits waits = new Waits();
        private double workerSeconds;
        private double cost;
        private long coldStarts;
        private long scaleEvents;
        private Moment before;
        private Moment known;

        Tally(double rate, Map<String, Double> nodeCosts) {
            this.rate = rate;
            this.nodeCosts = nodeCosts;
        }

        void add(Moment moment) {
            double now = moment.at() * rate;
            if (before != null) {
                double held = now - before.at() * rate;
                if (known != null) {
                    for (Map.Entry<String, Integer> group : known.workers().entrySet()) {
                        workerSeconds += held * group.getValue();
                        cost += held * group.getValue() * nodeCosts.getOrDefault(group.getKey(), 1.0) / 3600;
                    }
                }
                for (Map.Entry<String, Integer> group : moment.replicas().entrySet()) {
                    if (!Objects.equals(before.replicas().get(group.getKey()), group.getValue())) {
                        scaleEvents++;
                    }
                }
            }
            if (moment.rayState()) {
                waits.observe(moment, now);
                known = moment;
            }
            coldStarts += moment.newPods();
            before = moment;
        }

        Figures figures(long tasks) {
            double end = before == null ? 0 : before.at() * rate;
            return waits.figures(end, tasks, workerSeconds, cost, coldStarts, scaleEvents);
        }
    }

    /** Each kind's pending work as a first-in first-out queue: a drop of its count is its oldest leaving. */
    private static final class Waits {
        private final Map<Object, Deque<double[]>> queues = new HashMap<>();
        private final Map<Object, Long> lastCounts = new HashMap<>();
        /** How many waited how long, to a tenth of a second: bounded by the longest wait, not by the work. */
        private final TreeMap<Long, Long> waited = new TreeMap<>();
        private long seen;

        void observe(Moment moment, double now) {
            Map<Object, Long> counts = new HashMap<>(moment.pending());
            moment.gangs().keySet().forEach(id -> counts.put("gang " + id, 1L));
            for (Object key : Keys.ofEither(counts, lastCounts)) {
                long change = counts.getOrDefault(key, 0L) - lastCounts.getOrDefault(key, 0L);
                Deque<double[]> queue = queues.computeIfAbsent(key, k -> new ArrayDeque<>());
                if (change > 0) {
                    queue.addLast(new double[] {now, change});
                    seen += change;
                }
                leave(queue, -change, now);
                if (queue.isEmpty()) {
                    queues.remove(key);
                }
            }
            lastCounts.clear();
            lastCounts.putAll(counts);
        }

        private void leave(Deque<double[]> queue, long leaving, double now) {
            while (leaving > 0 && !queue.isEmpty()) {
                double[] oldest = queue.peekFirst();
                long taken = (long) Math.min(leaving, oldest[1]);
                wait(now - oldest[0], taken);
                oldest[1] -= taken;
                leaving -= taken;
                if (oldest[1] == 0) {
                    queue.pollFirst();
                }
            }
        }

        /** Work still pending at the end waited until the end (a floor of its wait). */
        Figures figures(double end, long tasks, double workerSeconds, double cost, long coldStarts, long scaleEvents) {
            queues.values().forEach(queue -> queue.forEach(batch -> wait(end - batch[0], (long) batch[1])));
            long total = Math.max(tasks, seen);
            long unseen = total - seen;
            return new Figures(workerSeconds, cost, quantile(0.5, unseen, total), quantile(0.95, unseen, total),
                    waited.isEmpty() ? 0 : waited.lastKey() / 10.0, total, coldStarts, scaleEvents);
        }

        private void wait(double seconds, long count) {
            waited.merge(Math.round(seconds * 10), count, Long::sum);
        }

        private double quantile(double q, long zeros, long total) {
            if (total == 0) {
                return 0;
            }
            long rank = (long) Math.ceil(q * total);
            long counted = zeros;
            if (counted >= rank) {
                return 0;
            }
            for (Map.Entry<Long, Long> wait : waited.entrySet()) {
                counted += wait.getValue();
                if (counted >= rank) {
                    return wait.getKey() / 10.0;
                }
            }
            return waited.isEmpty() ? 0 : waited.lastKey() / 10.0;
        }
    }
}
