package dev.rayscale.fences.samples.impure;

import java.time.Instant;

public final class ReadsTheClock {

    public static Instant now() {
        return Instant.now();
    }
}
