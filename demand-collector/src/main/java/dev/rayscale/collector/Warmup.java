package dev.rayscale.collector;

import dev.rayscale.events.codec.EventCodec;
import dev.rayscale.service.BackgroundWarmup;
import dev.rayscale.service.ProducerWarmup;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.reactive.messaging.kafka.KafkaClientService;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.List;
import org.eclipse.microprofile.config.Config;

/**
 * Makes the first snapshot as quick to publish as the later ones: right after start-up, off the start-up path, it readies
 * the producers ({@link ProducerWarmup}) and writes the shipped example snapshot, which loads the data binding the first
 * real one would otherwise wait for (the JSON Schema validator is left out: the collector writes snapshots, it never
 * reads one). The informers' readers are built before they start: {@link ClusterInventory}. Nothing is published.
 */
@ApplicationScoped
public class Warmup {

    void warm(@Observes StartupEvent event, KafkaClientService kafka, Config config) {
        BackgroundWarmup.start("collector-warmup", List.of(ProducerWarmup.step(kafka, config),
                new BackgroundWarmup.Step("the snapshot codec", EventCodec.SNAPSHOTS::warmUpWriting)));
    }
}
