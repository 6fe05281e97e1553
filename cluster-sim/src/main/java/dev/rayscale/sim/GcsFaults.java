package dev.rayscale.sim;

import io.grpc.Status;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;
import java.util.ArrayList;
import java.util.List;
import java.util.function.DoubleSupplier;

/**
 * Faults on the path between Ray's GCS and its clients, injected on request: for a while every call
 * fails at once ({@code UNAVAILABLE}, as when the head is unreachable), or is taken and never answered
 * (a hung connection: the caller's deadline is all that ends it). A hook can also run between a drain
 * the GCS accepted and its answer, to kill the caller at exactly that point.
 */
public final class GcsFaults {

    private enum Mode { NONE, FAIL, HANG }

    private final DoubleSupplier clock;
    private final List<StreamObserver<?>> parked = new ArrayList<>();
    private Mode mode = Mode.NONE;
    private double until;
    private Runnable onDrainAccepted;

    GcsFaults(DoubleSupplier clock) {
        this.clock = clock;
    }

    /** Every call fails with {@code UNAVAILABLE} for the next {@code seconds} (on the simulated clock). */
    public synchronized void failFor(double seconds) {
        begin(Mode.FAIL, seconds);
    }

    /** Every call is taken and left unanswered for the next {@code seconds}; then those still waiting fail. */
    public synchronized void hangFor(double seconds) {
        begin(Mode.HANG, seconds);
    }

    /** Runs {@code hook}, once, after the GCS accepts a drain and before it answers. */
    public synchronized void onNextDrainAccepted(Runnable hook) {
        onDrainAccepted = hook;
    }

    /** True while a fail or hang window is open. */
    public synchronized boolean active() {
        expire();
        return mode != Mode.NONE;
    }

    /** Takes a call if a fault window is open: fails it, or parks it unanswered. */
    synchronized boolean intercept(StreamObserver<?> observer) {
        expire();
        switch (mode) {
            case FAIL -> {
                observer.onError(Status.UNAVAILABLE.withDescription("injected fault: the GCS cannot be reached").asRuntimeException());
                return true;
            }
            case HANG -> {
                if (observer instanceof ServerCallStreamObserver<?> call) {
                    // The caller gives up at its deadline; the call is then dropped from the parked ones.
                    call.setOnCancelHandler(() -> forget(observer));
                }
                parked.add(observer);
                return true;
            }
            default -> {
                return false;
            }
        }
    }

    void drainAccepted() {
        Runnable hook;
        synchronized (this) {
            hook = onDrainAccepted;
            onDrainAccepted = null;
        }
        if (hook != null) {
            hook.run();
        }
    }

    /** Ends a window whose time is up, failing the calls a hang still holds. */
    synchronized void expire() {
        if (mode == Mode.NONE || clock.getAsDouble() < until) {
            return;
        }
        mode = Mode.NONE;
        for (StreamObserver<?> observer : parked) {
            try {
                observer.onError(Status.UNAVAILABLE.withDescription("injected fault: the connection was dropped").asRuntimeException());
            } catch (RuntimeException alreadyGone) {
                // the caller cancelled meanwhile
            }
        }
        parked.clear();
    }

    private void begin(Mode next, double seconds) {
        expire();
        mode = next;
        until = clock.getAsDouble() + seconds;
    }

    private synchronized void forget(StreamObserver<?> observer) {
        parked.remove(observer);
    }
}
