package dev.rayscale.bench;

import dev.rayscale.demo.RayscaleServices.Member;
import java.util.HashMap;
import java.util.Map;
import java.util.function.ToLongFunction;

/**
 * The records each instance handled over the measured window, from counters that start again at zero when the instance
 * does: what it counted before it stopped is banked, and its count after its new start added. Read from its metrics
 * ({@code counted}, -1 when they cannot be read, which then makes the figure unknown: -1).
 */
final class HandledRecords {

    private final ToLongFunction<Member> counted;
    private final Map<Member, Long> base = new HashMap<>();
    private final Map<Member, Long> banked = new HashMap<>();

    HandledRecords(ToLongFunction<Member> counted) {
        this.counted = counted;
    }

    /** The window starts: what each instance counted so far is not of it. */
    synchronized void begin(Iterable<Member> members) {
        members.forEach(member -> base.put(member, counted.applyAsLong(member)));
    }

    /**
     * {@code member} is about to stop: its count so far is banked, and its next start counts from zero. What it handles
     * while it stops (the batch under way) is not counted.
     */
    synchronized void stopping(Member member) {
        banked.merge(member, sinceBase(member), HandledRecords::sum);
        base.put(member, 0L);
    }

    /** What {@code member} handled since {@link #begin}, across its restarts; -1 if some count could not be read. */
    synchronized long measured(Member member) {
        return sum(banked.getOrDefault(member, 0L), sinceBase(member));
    }

    private long sinceBase(Member member) {
        long now = counted.applyAsLong(member);
        long from = base.getOrDefault(member, 0L);
        return now < 0 || from < 0 ? -1 : now - from;
    }

    private static long sum(long a, long b) {
        return a < 0 || b < 0 ? -1 : a + b;
    }
}
