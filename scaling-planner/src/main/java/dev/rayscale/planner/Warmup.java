package dev.rayscale.planner;

import dev.rayscale.events.codec.EventCodec;
import dev.rayscale.planner.core.Planner;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import org.jboss.logging.Logger;

/**
 * Makes the first snapshot as quick to plan as the later ones: right after start-up, off the start-up path, it reads the
 * shipped example snapshot, plans it with this planner's settings and writes the decision, which loads and warms what
 * the first real snapshot would otherwise wait for in a cold JVM. Nothing is published.
 */
@ApplicationScoped
public class Warmup {

    private static final Logger LOG = Logger.getLogger(Warmup.class);

    void warm(@Observes StartupEvent event, PlannerConfig config) {
        Thread thread = new Thread(() -> {
            long start = System.nanoTime();
            try {
                EventCodec.DECISIONS.encode(new Planner(config.settings()).plan(EventCodec.SNAPSHOTS.warmUp()));
                LOG.debugf("warmed up in %d ms", (System.nanoTime() - start) / 1_000_000);
            } catch (RuntimeException notShipped) {
                LOG.debugf("could not warm up (the first snapshot will): %s", notShipped.getMessage());
            }
        }, "planner-warmup");
        thread.setDaemon(true);
        thread.start();
    }
}
