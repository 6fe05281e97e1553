package dev.rayscale.actuator;

import dev.rayscale.events.ActuationResult;
import dev.rayscale.events.ScaleDecision;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.PriorityBlockingQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * One lane per cluster: a cluster's decisions are applied one after another, different clusters' side by side on the
 * workers, and none waits for another cluster's. A decision still waiting in its lane when a newer one of its cluster
 * arrives is answered at once, superseded, without a call to the API server or the GCS: however long the queue behind
 * an actuator grows, each cluster costs one application at a time, and the newest decision is the one applied next,
 * also while its lane waits for a worker behind other clusters' lanes. A cluster's results are published in the order
 * its decisions arrived.
 *
 * <p>Batches alone could not do this: only decisions delivered together can supersede one another, and a backlog
 * larger than a poll (or than the heap, when polls grow) was applied decision by decision. Lanes hold at most one
 * waiting decision per cluster.
 *
 * <p>When every worker is busy, a lane whose next decision grows its cluster gets the next free worker before the lanes
 * whose next decisions do not (in the order they came among each kind; a lane waiting with a scale-down moves up when a
 * scale-up takes its place): pending work waits for a scale-up, while a scale-down that waits costs only an idle node a
 * little longer, and a scale-down, which drains nodes and reads the pods again, holds a worker longer than a scale-up.
 *
 * <p>One actuator serves every team: a namespace holds at most its share of the workers ({@code perNamespace}) while a
 * share's worth would not stay free for the others, so that clusters whose API calls or GCSs are slow (each holds its
 * worker until its deadlines) cannot take every worker. A lane beyond its namespace's share waits aside, and takes its turn
 * again when one of that namespace's applications ends.
 */
final class DecisionLanes {

    /** Applies a decision, or answers it STALE at once when {@code newer} (not null) supersedes it. */
    @FunctionalInterface
    interface Applier {
        ActuationResult apply(ScaleDecision decision, ScaleDecision newer);
    }

    private final ThreadPoolExecutor workers;
    private final int perNamespace;
    private final Consumer<String> shareReached;
    /** Guarded by {@code this}: applications under way, per namespace and in all. */
    private final Map<String, Integer> applying = new HashMap<>();
    private int applyingInAll;
    /** Guarded by {@code this}: lanes whose turn came while their namespace had its share under way. */
    private final List<Lane> aside = new ArrayList<>();
    private final Applier applier;
    private final Function<ActuationResult, CompletionStage<Void>> send;
    /** Guarded by {@code this}, as is each lane's state: every result is completed, and so published, under it. */
    private final Map<String, Lane> lanes = new HashMap<>();
    private final int capacity;
    /** Decisions taken in whose result is not yet on the broker: what the lanes hold in memory. */
    private int open;
    private boolean closed;
    /** Orders the turns of one kind as they were scheduled. */
    private long turns;

    /** {@code threads} workers for lanes, whose queue orders the lanes' turns ({@link Turn}). */
    static ThreadPoolExecutor workers(int threads, ThreadFactory threadFactory) {
        return new ThreadPoolExecutor(threads, threads, 0, TimeUnit.MILLISECONDS, new PriorityBlockingQueue<>(), threadFactory);
    }

    /**
     * @param workers made by {@link #workers}
     * @param capacity how many decisions may be taken in before their results are on the broker ({@link #awaitRoom})
     * @param perNamespace the workers one namespace's clusters may hold while others may need them
     * @param shareReached told a namespace's name each time one of its lanes waits aside for its share
     */
    DecisionLanes(ThreadPoolExecutor workers, Applier applier, Function<ActuationResult, CompletionStage<Void>> send, int capacity,
            int perNamespace, Consumer<String> shareReached) {
        this.workers = workers;
        this.perNamespace = perNamespace;
        this.shareReached = shareReached;
        this.applier = applier;
        this.send = send;
        this.capacity = capacity;
    }

    /**
     * Waits until the lanes can take another decision in without holding more than their capacity; says false, at once,
     * when they are closed: then nothing more is taken in, and the records are left for the partition's next reader.
     */
    synchronized boolean awaitRoom() throws InterruptedException {
        while (open >= capacity && !closed) {
            wait();
        }
        return !closed;
    }

    /**
     * Takes {@code decision} into its cluster's lane. {@code newer} is a decision of the same cluster delivered with it
     * that supersedes it (or the decision itself when none does): then it is answered at once. Completes when its result
     * is on the broker, failed if applying it or publishing its result failed; never, if the lanes are closed before it
     * is applied (its record is left for the partition's next reader).
     */
    synchronized CompletionStage<Void> offer(ScaleDecision decision, ScaleDecision newer) {
        Lane lane = lanes.computeIfAbsent(decision.cluster().id(), Lane::new);
        Entry entry = lane.enqueue(decision);
        if (newer != decision) {
            answer(entry, newer);
        } else if (lane.next != null) {
            boolean newest = decision.snapshotSequence() > lane.next.decision.snapshotSequence();
            Entry superseded = newest ? lane.next : entry;
            if (newest) {
                lane.next = entry;
                if (decision.grows() && lane.queued != null && !lane.queued.grows() && !closed && workers.remove(lane.queued)) {
                    queue(lane, lane.queued.order());
                }
            }
            answer(superseded, lane.next.decision);
        } else {
            lane.next = entry;
            if (!lane.scheduled && !closed) {
                lane.scheduled = true;
                queue(lane, turns++);
            }
        }
        return entry.published;
    }

    /** Queues the lane's turn, ranked by its next decision. */
    private void queue(Lane lane, long order) {
        lane.queued = new Turn(lane.next.decision.grows(), order, () -> run(lane));
        workers.execute(lane.queued);
    }

    /** Starts no decision from now on; waits, at most {@code patience}, for those being applied. Says whether they ended. */
    boolean close(Duration patience) throws InterruptedException {
        long deadline = System.nanoTime() + patience.toNanos();
        synchronized (this) {
            closed = true;
            while (lanes.values().stream().anyMatch(lane -> lane.applying)) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return false;
                }
                TimeUnit.NANOSECONDS.timedWait(this, left);
            }
            return true;
        }
    }

    /** Clusters with a decision being applied or waiting, or a result not yet handed to the producer. */
    synchronized int busyClusters() {
        return lanes.size();
    }

    /** Decisions taken in whose result is not yet on the broker. */
    synchronized int open() {
        return open;
    }

    /** Hands the result to the producer, and settles the entry when the broker has it; never throws, or the lane stalls. */
    private void publish(Entry entry, ActuationResult result, Throwable failure) {
        if (failure != null) {
            published(entry, failure);
            return;
        }
        CompletionStage<Void> sent;
        try {
            sent = send.apply(result);
        } catch (RuntimeException notSent) {
            published(entry, notSent);
            return;
        }
        sent.whenComplete((ignored, notSent) -> published(entry, notSent));
    }

    /** Settles the entry outside the lock: what waits on it (the record's acknowledgement) is none of the lanes' business. */
    private void published(Entry entry, Throwable failure) {
        synchronized (this) {
            open--;
            notifyAll();
        }
        if (failure == null) {
            entry.published.complete(null);
        } else {
            entry.published.completeExceptionally(failure);
        }
    }

    /**
     * A worker's turn at a lane: it applies the lane's next decision, taken when the worker gets to it, not when the lane
     * was scheduled, so that a lane waiting for a worker behind other clusters' lanes goes on taking newer decisions in
     * place of its next one (their results leave at once), and then applies its newest. A decision that came while it
     * was applied takes a turn of its own, behind the lanes already waiting: a cluster whose decisions keep coming does
     * not hold a worker while others wait, and a scale-up waiting elsewhere goes first.
     */
    private void run(Lane lane) {
        Entry entry;
        synchronized (this) {
            lane.queued = null;
            entry = closed ? null : lane.next;
            if (entry == null) {
                lane.scheduled = false;
                forgetIfIdle(lane);
                notifyAll();
                return;
            }
            String namespace = lane.namespace();
            boolean shareFree = workers.getMaximumPoolSize() - applyingInAll - 1 >= perNamespace;
            if (applying.getOrDefault(namespace, 0) >= perNamespace && !shareFree) {
                aside.add(lane);
                shareReached.accept(namespace);
                return;
            }
            applying.merge(namespace, 1, Integer::sum);
            applyingInAll++;
            lane.next = null;
            lane.applying = true;
        }
        ActuationResult result = null;
        Throwable failure = null;
        try {
            result = applier.apply(entry.decision, null);
        } catch (RuntimeException | Error e) {
            failure = e;
        }
        synchronized (this) {
            lane.applying = false;
            applying.computeIfPresent(lane.namespace(), (key, count) -> count > 1 ? count - 1 : null);
            applyingInAll--;
            if (!closed) {
                // Their turns come again; each is weighed anew against its namespace's share when a worker takes it.
                aside.forEach(waiting -> queue(waiting, turns++));
            }
            aside.clear();
            if (lane.next != null && !closed) {
                queue(lane, turns++);
            } else {
                lane.scheduled = false;
            }
            complete(entry, result, failure);
            notifyAll();
        }
    }

    /** A worker's turn at a lane, as queued: those of lanes whose decision grows its cluster first, then in order. */
    private record Turn(boolean grows, long order, Runnable work) implements Runnable, Comparable<Turn> {

        @Override
        public void run() {
            work.run();
        }

        @Override
        public int compareTo(Turn other) {
            return grows != other.grows ? (grows ? -1 : 1) : Long.compare(order, other.order);
        }
    }

    private void answer(Entry entry, ScaleDecision newer) {
        try {
            complete(entry, applier.apply(entry.decision, newer), null);
        } catch (RuntimeException e) {
            complete(entry, null, e);
        }
    }

    private void complete(Entry entry, ActuationResult result, Throwable failure) {
        if (failure == null) {
            entry.result.complete(result);
        } else {
            entry.result.completeExceptionally(failure);
        }
        entry.lane.unanswered--;
        forgetIfIdle(entry.lane);
    }

    private void forgetIfIdle(Lane lane) {
        if (!lane.scheduled && lane.unanswered == 0) {
            lanes.remove(lane.cluster, lane);
        }
    }

    private final class Lane {

        private final String cluster;
        /** The decision to apply next: the newest taken in and not yet applied or answered. */
        private Entry next;
        /** A worker has the lane: waiting for a thread, or applying. */
        private boolean scheduled;
        /** Its turn while it waits on the workers' queue. */
        private Turn queued;
        /** A worker is applying one of its decisions. */
        private boolean applying;
        private int unanswered;
        /** Completes once the last entry's result has been handed to the producer (or failed): the next one's waits for it. */
        private CompletionStage<Void> handedOn = CompletableFuture.completedFuture(null);

        Lane(String cluster) {
            this.cluster = cluster;
        }

        String namespace() {
            return cluster.substring(0, cluster.indexOf('/'));
        }

        Entry enqueue(ScaleDecision decision) {
            Entry entry = new Entry(this, decision);
            unanswered++;
            open++;
            // Chained, not merely ordered by completion: a superseded decision is answered before the one it waited
            // behind, and its result must still leave after that one's.
            handedOn = handedOn.thenCompose(previous -> entry.result.handle((result, failure) -> {
                publish(entry, result, failure);
                return null;
            }));
            return entry;
        }
    }

    private static final class Entry {

        private final Lane lane;
        private final ScaleDecision decision;
        private final CompletableFuture<ActuationResult> result = new CompletableFuture<>();
        private final CompletableFuture<Void> published = new CompletableFuture<>();

        Entry(Lane lane, ScaleDecision decision) {
            this.lane = lane;
            this.decision = decision;
        }
    }
}
