package dev.rayscale.bench;

import dev.rayscale.events.Resources;
import dev.rayscale.sim.Workload;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;

/**
 * The bench's fleet and its demand, from a seed: cluster sizes spread from 1 to a largest size, 200
 * workers by default (as many small clusters as large ones, on a log scale), plus a few of 2,000, and for each cluster a change of
 * its demand every {@code period}, at a phase of its own, so that changes arrive evenly over time.
 * Every change asks the cluster to grow, as a user submitting more work than it has room for; its tasks are short and
 * its idle nodes go soon, so that by its next change a cluster is back to (nearly) no workers and the fleet keeps a
 * steady size instead of growing to its largest, where no change could be made.
 */
public final class FleetLoad {

    /** Every worker is one CPU: a task of one CPU needs exactly one worker. */
    public static final Resources TASK = Resources.of("CPU", "1");
    static final int BIG_CLUSTER_WORKERS = 2000;
    private static final long WORKER_MEMORY = 4L << 30;
    /**
     * A node idle this long is removed (Ray's default is 60 s). With 10 s, a period's length, the nodes of one change were
     * still idle at the next, which had to ask for more than them: the clusters ratcheted up to their largest sizes and
     * then about half of a 120 s run's changes could not be made.
     */
    private static final int IDLE_TIMEOUT_SECONDS = 2;
    /** Tasks run between these fractions of a period: 0.5 to 1.5 s at the default 10 s, so that nodes are idle well before the next change. */
    private static final double SHORTEST_TASK = 0.05;
    private static final double LONGEST_TASK = 0.15;
    /**
     * A change grows its cluster by up to this part of its largest size. Up to half of the remaining room (before
     * 2026-12-05) made the fleet start and stop about 1,000 pods a second (each cluster back to no workers between its
     * changes), seven API writes each: more than the simulated API server could take on this machine beside everything
     * else, and more churn than a real fleet's API server sees. A tenth makes about 300 a second; the 2,000-worker
     * clusters still grow by up to 200 at a change.
     */
    private static final double LARGEST_STEP = 0.1;

    /** One cluster: its name, its largest size, and when in each period its demand changes. */
    public record Member(String name, int maxWorkers, double phaseSeconds) {
    }

    /** One change of demand: {@code tasks} tasks of {@link #TASK}, each running {@code seconds}. */
    public record Change(int tasks, double seconds) {
    }

    private final List<Member> members;
    private final double periodSeconds;
    private final SplittableRandom random;

    /**
     * @param largest the largest size of the ordinary clusters (the fleet: 200)
     * @param bigClusters how many clusters have {@value #BIG_CLUSTER_WORKERS} workers at most
     */
    public FleetLoad(int clusters, int largest, int bigClusters, double periodSeconds, long seed) {
        if (clusters < 1 || largest < 1 || bigClusters < 0 || bigClusters > clusters || periodSeconds <= 0) {
            throw new IllegalArgumentException("clusters >= 1, largest >= 1, 0 <= big clusters <= clusters and a positive period are required");
        }
        this.periodSeconds = periodSeconds;
        this.random = new SplittableRandom(seed);
        List<Member> planned = new ArrayList<>();
        for (int i = 0; i < clusters; i++) {
            int size = i < bigClusters ? BIG_CLUSTER_WORKERS
                    : (int) Math.max(1, Math.round(Math.exp(random.nextDouble() * Math.log(largest))));
            planned.add(new Member(String.format("fleet-%04d", i), size, random.nextDouble() * periodSeconds));
        }
        this.members = List.copyOf(planned);
    }

    public List<Member> members() {
        return members;
    }

    public double periodSeconds() {
        return periodSeconds;
    }

    /** The sum of the clusters' largest sizes. */
    public long maxWorkers() {
        return members.stream().mapToLong(Member::maxWorkers).sum();
    }

    /**
     * The next change of a cluster's demand: more one-CPU tasks than its workers can take, so that it must grow (a
     * change the cluster absorbs needs no decision, and would measure nothing), by up to a tenth of its largest size
     * ({@link #LARGEST_STEP}) within its remaining room; each task runs a short part of a period ({@link #SHORTEST_TASK}
     * to {@link #LONGEST_TASK}). Empty when the cluster is already at its largest size.
     *
     * @param workerPods the cluster's worker pods, running or starting (one task each)
     * @param tasks its tasks queued or running
     */
    public synchronized Optional<Change> nextChange(Member member, int workerPods, long tasks) {
        long needed = Math.max(1, workerPods - tasks + 1);
        long room = member.maxWorkers() - tasks;
        if (needed > room) {
            return Optional.empty();
        }
        long step = Math.max(1, Math.round(member.maxWorkers() * LARGEST_STEP));
        long count = needed + random.nextLong(Math.min(room - needed, step) + 1);
        return Optional.of(new Change((int) count, periodSeconds * (SHORTEST_TASK + random.nextDouble() * (LONGEST_TASK - SHORTEST_TASK))));
    }

    /**
     * The RayCluster of each member: one group of one-CPU workers from 0 to its size; a node idle for
     * {@value #IDLE_TIMEOUT_SECONDS} s is removed, so that clusters shrink between changes and grow again at the next. Upscaling is
     * {@code Aggressive}: at the default speed a change that comes while launches are pending waits for them (Ray's
     * pacing, which the planner follows), and the bench would measure that policy rather than the pipeline.
     */
    public Map<String, Workload> workloads() {
        Map<String, Workload> workloads = new LinkedHashMap<>();
        for (Member member : members) {
            Workload.Group group = new Workload.Group("workers", Map.of("CPU", BigDecimal.ONE, "memory", BigDecimal.valueOf(WORKER_MEMORY)),
                    0, member.maxWorkers(), null, 0, null);
            Workload.Cluster cluster = new Workload.Cluster(0, "Aggressive", IDLE_TIMEOUT_SECONDS, List.of(group), null, null);
            workloads.put(member.name(), new Workload(member.name(), null, 1, cluster, null, 2, null, null, Double.MAX_VALUE, List.of(), null, null, null));
        }
        return workloads;
    }
}
