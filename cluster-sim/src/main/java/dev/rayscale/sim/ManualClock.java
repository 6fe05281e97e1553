package dev.rayscale.sim;

/** Simulated time that moves only when told: for tests that check the model step by step. */
public final class ManualClock {

    private volatile double seconds;

    public double seconds() {
        return seconds;
    }

    void set(double value) {
        seconds = value;
    }
}
