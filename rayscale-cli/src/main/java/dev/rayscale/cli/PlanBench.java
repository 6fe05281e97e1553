package dev.rayscale.cli;

import dev.rayscale.events.ClusterSnapshot;
import dev.rayscale.planner.core.Planner;
import java.util.Arrays;
import java.util.Locale;

/** Times repeated plans of one input, after a warm-up, on the calling thread. */
final class PlanBench {

    private static final int WARM_UP = 200;

    private PlanBench() {
    }

    /** {@code plan median_ms=... p99_ms=...} over {@code runs} timed plans. */
    static String run(Planner planner, ClusterSnapshot snapshot, int runs) {
        for (int i = 0; i < WARM_UP; i++) {
            planner.plan(snapshot);
        }
        long[] nanos = new long[runs];
        int sink = 0;
        for (int i = 0; i < runs; i++) {
            long start = System.nanoTime();
            sink += planner.plan(snapshot).groups().size();
            nanos[i] = System.nanoTime() - start;
        }
        Arrays.sort(nanos);
        return String.format(Locale.ROOT, "plan median_ms=%.3f p99_ms=%.3f runs=%d groups=%d",
                nanos[runs / 2] / 1e6, nanos[Math.min(runs - 1, (int) Math.ceil(runs * 0.99) - 1)] / 1e6, runs, sink / runs);
    }
}
