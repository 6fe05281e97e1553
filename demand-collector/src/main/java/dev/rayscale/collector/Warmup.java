package dev.rayscale.collector;

import dev.rayscale.events.codec.EventCodec;
import dev.rayscale.service.BackgroundWarmup;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.List;

/**
 * Makes the first snapshot as quick to publish as the later ones: right after start-up, off the start-up path, after the
 * producers are readied ({@link BackgroundWarmup}), it writes the shipped example snapshot, which loads the data binding the first
 * real one would otherwise wait for (the JSON Schema validator is left out: the collector writes snapshots, it never
 * reads one). The informers' readers are built before they start: {@link ClusterInventory}. Nothing is published.
 */
@ApplicationScoped
public class Warmup {

    void warm(@Observes StartupEvent event) {
        BackgroundWarmup.start("collector-warmup", List.of(new BackgroundWarmup.Step("the snapshot codec", EventCodec.SNAPSHOTS::warmUpWriting)));
    }
}
