package dev.rayscale.sim;


/**
 * Simulated time: real time since the start, multiplied by a speed factor, so that a five-minute
 * scenario runs in seconds. Only the simulated cluster lives on this clock; Rayscale's services run
 * on real time and see simulated durations only where Ray reports them (idle time, task time).
 */
public final class SimClock {

    private final double speed;
    private final long startNanos = System.nanoTime();

    public SimClock(double speed) {
        if (speed <= 0) {
            throw new IllegalArgumentException("speed must be positive, was " + speed);
        }
        this.speed = speed;
    }

    /** Simulated seconds since the start. */
    public double seconds() {
        return (System.nanoTime() - startNanos) / 1e9 * speed;
    }

    public double speed() {
        return speed;
    }
}
