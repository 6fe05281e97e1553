package dev.rayscale.service;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

class InFlightTest {

    private static final Duration PATIENCE = Duration.ofSeconds(10);

    /** Threads of the test's own: the common pool has one thread on a 2-core machine, and the batch under way blocks it. */
    private final ExecutorService threads = Executors.newFixedThreadPool(2);

    @org.junit.jupiter.api.AfterEach
    void stopThreads() {
        threads.shutdownNow();
    }

    @Test
    void drainingWaitsForTheBatchUnderWayThenRefusesNewOnes() throws Exception {
        InFlight inFlight = new InFlight("tests", "run");
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        AtomicBoolean finished = new AtomicBoolean();
        CompletableFuture<Boolean> underWay = CompletableFuture.supplyAsync(() -> inFlight.run(() -> {
            started.countDown();
            await(release);
            finished.set(true);
        }), threads);
        assertThat(started.await(PATIENCE.toSeconds(), TimeUnit.SECONDS)).isTrue();

        CountDownLatch drainStarted = new CountDownLatch(1);
        CompletableFuture<Boolean> draining = CompletableFuture.supplyAsync(() -> {
            drainStarted.countDown();
            return inFlight.drain(PATIENCE);
        }, threads);
        assertThat(drainStarted.await(PATIENCE.toSeconds(), TimeUnit.SECONDS)).isTrue();
        assertThat(finished).as("the batch is still under way while the drain waits").isFalse();
        release.countDown();

        assertThat(draining.get(PATIENCE.toSeconds(), TimeUnit.SECONDS)).as("drained").isTrue();
        assertThat(finished).as("the batch under way ended before the drain did").isTrue();
        assertThat(underWay.get()).isTrue();
        AtomicBoolean ran = new AtomicBoolean();
        assertThat(inFlight.run(() -> ran.set(true))).as("a batch offered while stopping").isFalse();
        assertThat(ran).isFalse();
    }

    @Test
    void drainingGivesUpAfterItsPatienceAndSaysSo() throws Exception {
        InFlight inFlight = new InFlight("tests", "run");
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        CompletableFuture<Boolean> stuck = CompletableFuture.supplyAsync(() -> inFlight.run(() -> {
            started.countDown();
            await(release);
        }), threads);
        assertThat(started.await(PATIENCE.toSeconds(), TimeUnit.SECONDS)).isTrue();

        assertThat(inFlight.drain(Duration.ofMillis(50))).isFalse();

        release.countDown();
        assertThat(stuck.get(PATIENCE.toSeconds(), TimeUnit.SECONDS)).isTrue();
    }

    private static void await(CountDownLatch latch) {
        try {
            assertThat(latch.await(PATIENCE.toSeconds(), TimeUnit.SECONDS)).isTrue();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
