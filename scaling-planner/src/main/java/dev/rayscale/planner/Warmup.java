package dev.rayscale.planner;

import dev.rayscale.events.codec.EventCodec;
import dev.rayscale.planner.core.Planner;
import dev.rayscale.service.BackgroundWarmup;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.List;

/**
 * Makes the first snapshot as quick to plan as the later ones: right after start-up, off the start-up path, it reads the
 * shipped example snapshot, plans it with this planner's settings and writes the decision, which loads and warms what
 * the first real snapshot would otherwise wait for in a cold JVM; the producers are readied
 * first ({@link BackgroundWarmup}).
 * Nothing is published.
 */
@ApplicationScoped
public class Warmup {

    void warm(@Observes StartupEvent event, PlannerConfig config) {
        BackgroundWarmup.start("planner-warmup", List.of(new BackgroundWarmup.Step("the event codecs and the planner",
                () -> EventCodec.DECISIONS.encode(new Planner(config.settings()).plan(EventCodec.SNAPSHOTS.warmUp())))));
    }
}
