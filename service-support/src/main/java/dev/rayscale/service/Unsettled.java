package dev.rayscale.service;

import java.time.Duration;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Work handed on and not yet settled (a record on its way to the broker, a record waiting for its output), so that
 * stopping can wait for it to end, one way or the other, before the clients close.
 */
public final class Unsettled {

    private final Set<CompletableFuture<?>> unsettled = ConcurrentHashMap.newKeySet();

    /** Follows {@code work} until it completes; returns it. */
    public <T> CompletableFuture<T> track(CompletionStage<T> work) {
        CompletableFuture<T> future = work.toCompletableFuture();
        unsettled.add(future);
        future.whenComplete((done, failure) -> unsettled.remove(future));
        return future;
    }

    /**
     * Waits, at most {@code patience}, until everything tracked so far has completed; a failure counts as completed (it
     * is reported where it happens). False if time ran out.
     */
    public boolean await(Duration patience) {
        return awaitUntil(deadline(patience));
    }

    /** The {@link System#nanoTime()} by which {@code patience} from now runs out, for waits that share one. */
    public static long deadline(Duration patience) {
        return System.nanoTime() + patience.toNanos();
    }

    /** As {@link #await(Duration)}, until the {@link #deadline(Duration) deadline}: one patience shared by several waits. */
    public boolean awaitUntil(long deadline) {
        for (CompletableFuture<?> future : unsettled.toArray(CompletableFuture[]::new)) {
            try {
                future.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            } catch (ExecutionException | CancellationException failed) {
                // Completed, and reported where it failed.
            } catch (TimeoutException late) {
                return false;
            } catch (InterruptedException interrupted) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
        return true;
    }

    /** How many are still under way. */
    public int size() {
        return unsettled.size();
    }
}
