package dev.rayscale.service;

import java.util.List;
import org.jboss.logging.Logger;

/**
 * Does at start-up, off its path, what a service's first event would otherwise pay for in a cold JVM (class loading,
 * serialisers, connections). The steps run one after another on a daemon thread of their own; one that fails is logged at
 * debug and the next runs anyway: the first event then pays for it, as it would have without a warm-up.
 */
public final class BackgroundWarmup {

    private static final Logger LOG = Logger.getLogger(BackgroundWarmup.class);

    /** @param what what the step warms, for the log: "the event codecs" */
    public record Step(String what, Runnable run) {
    }

    private BackgroundWarmup() {
    }

    public static void start(String threadName, List<Step> steps) {
        Thread thread = new Thread(() -> {
            long start = System.nanoTime();
            for (Step step : steps) {
                try {
                    step.run().run();
                } catch (RuntimeException failed) {
                    LOG.debugf("could not warm up %s (the first event will): %s", step.what(), failed.getMessage());
                }
            }
            LOG.debugf("%s: warmed up in %d ms", threadName, (System.nanoTime() - start) / 1_000_000);
        }, threadName);
        thread.setDaemon(true);
        thread.start();
    }
}
