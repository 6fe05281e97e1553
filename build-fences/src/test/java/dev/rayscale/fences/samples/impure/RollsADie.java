package dev.rayscale.fences.samples.impure;

import java.util.UUID;

public final class RollsADie {

    public static String id() {
        return UUID.randomUUID().toString();
    }
}
