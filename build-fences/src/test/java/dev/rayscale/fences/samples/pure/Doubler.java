package dev.rayscale.fences.samples.pure;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

/** Pure: told the time, returns data. */
public final class Doubler {

    public static List<Instant> twice(Instant now, Duration step) {
        return List.of(now, now.plus(step));
    }
}
