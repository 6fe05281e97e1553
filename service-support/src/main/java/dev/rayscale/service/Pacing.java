package dev.rayscale.service;

import java.time.Duration;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * Lets a log line that may come in floods (a broker down, a producer writing garbage) through once an interval for each
 * key, the first time at once, and counts the ones held back in between, so that the next line can say how many.
 */
public final class Pacing {

    private record Said(long atNanos, long heldBack) {
    }

    private final long everyNanos;
    private final LongSupplier nanoTime;
    private final Map<String, Said> said = new ConcurrentHashMap<>();

    public Pacing(Duration every, LongSupplier nanoTime) {
        this.everyNanos = every.toNanos();
        this.nanoTime = nanoTime;
    }

    /** Empty while {@code key} is held back; else how many times it was held back since it was let through last. */
    public OptionalLong due(String key) {
        long now = nanoTime.getAsLong();
        long[] heldBefore = {0};
        Said after = said.compute(key, (same, last) -> {
            if (last == null || now - last.atNanos() >= everyNanos) {
                heldBefore[0] = last == null ? 0 : last.heldBack();
                return new Said(now, 0);
            }
            return new Said(last.atNanos(), last.heldBack() + 1);
        });
        return after.heldBack() == 0 ? OptionalLong.of(heldBefore[0]) : OptionalLong.empty();
    }
}
