package dev.rayscale.service;

import io.quarkus.runtime.Quarkus;
import java.util.ArrayList;
import java.util.List;
import org.jboss.logging.Logger;

/**
 * Does at start-up, off its path, what a service's first event would otherwise pay for in a cold JVM (class loading,
 * serialisers, connections). The steps run one after another on a daemon thread of their own; one that fails is logged at
 * debug and the next runs anyway: the first event then pays for it, as it would have without a warm-up. The first step
 * checks that the service's Kafka topics exist ({@link KafkaTopicsReadiness}, which says so at start when they do not)
 * and readies its producers ({@link ProducerWarmup}); the service's own steps follow.
 *
 * <p>In a <em>training run</em> ({@code -D}{@value #TRAINING_RUN}{@code =true}) the service exits once warmed up. The
 * build starts each service so, with {@code -XX:ArchiveClassesAtExit}, to record the classes its start-up and warm-up
 * load in a class-data archive, which later starts read instead of loading them one by one from the jars.
 */
public final class BackgroundWarmup {

    public static final String TRAINING_RUN = "rayscale.training-run";

    private static final Logger LOG = Logger.getLogger(BackgroundWarmup.class);

    /** @param what what the step warms, for the log: "the event codecs" */
    public record Step(String what, Runnable run) {
    }

    private BackgroundWarmup() {
    }

    /** Whether this is a training run, in which the service exits once warmed up. */
    public static boolean trainingRun() {
        return Boolean.getBoolean(TRAINING_RUN);
    }

    /** Starts the warm-up: the producers', then {@code steps}. */
    public static void start(String threadName, List<Step> steps) {
        List<Step> all = new ArrayList<>(List.of(ProducerWarmup.step()));
        all.addAll(steps);
        Thread thread = new Thread(() -> {
            long start = System.nanoTime();
            for (Step step : all) {
                try {
                    step.run().run();
                } catch (RuntimeException failed) {
                    LOG.debugf("could not warm up %s (the first event will): %s", step.what(), failed.getMessage());
                }
            }
            LOG.debugf("%s: warmed up in %d ms", threadName, (System.nanoTime() - start) / 1_000_000);
            if (trainingRun()) {
                LOG.infof("training run: warmed up, exiting");
                Quarkus.asyncExit();
            }
        }, threadName);
        thread.setDaemon(true);
        thread.start();
    }
}
