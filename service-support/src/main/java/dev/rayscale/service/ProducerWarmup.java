package dev.rayscale.service;

import io.smallrye.mutiny.Uni;
import io.smallrye.reactive.messaging.kafka.KafkaClientService;
import java.time.Duration;
import jakarta.enterprise.inject.spi.CDI;
import org.eclipse.microprofile.health.HealthCheckResponse.Status;
import org.eclipse.microprofile.health.Readiness;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.apache.kafka.common.PartitionInfo;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.ConfigProvider;

/**
 * Readies each outgoing channel's Kafka producer before the first event needs it. A producer learns its topic's
 * partitions on its first send, which waits for them and then for the broker's first answer on the partition's leader:
 * about 0.15 s of the first decision's way to the actuator in the demo. Asking it for its topic's partitions does that
 * ahead.
 *
 * <p>Every service's warm-up begins with it ({@link BackgroundWarmup#start}): all three have producers.
 *
 * <p>Skipped in a training run: it has no broker, and a producer waits for one up to {@code max.block.ms}, which would hold
 * the run's exit as long.
 */
public final class ProducerWarmup {

    /** Long enough for a broker that is up; a warm-up that gives up leaves the first send to pay, as without it. */
    private static final Duration WITHIN = Duration.ofSeconds(10);

    private ProducerWarmup() {
    }

    /** The step for the running service: its Kafka clients, its configuration and its topics' check, looked up when the step runs. */
    static BackgroundWarmup.Step step() {
        return step(() -> CDI.current().select(KafkaClientService.class).get(), ConfigProvider::getConfig,
                () -> CDI.current().select(KafkaTopicsReadiness.class, Readiness.Literal.INSTANCE).get().call().getStatus() == Status.UP);
    }

    /**
     * The step that readies every producer of {@code clients}, each on its channel's topic (the channel's name by default),
     * once {@code topicsExist} says that the broker answers and has the topics (and says which are missing when not). When
     * they do not, the producers are left alone: asking a producer for a topic it cannot find holds its sending thread for
     * up to {@code max.block.ms} (5 minutes), and a stop waited for that (40 s, then the process was killed).
     */
    static BackgroundWarmup.Step step(Supplier<KafkaClientService> clients, Supplier<Config> config, BooleanSupplier topicsExist) {
        return new BackgroundWarmup.Step("the Kafka producers", () -> {
            if (BackgroundWarmup.trainingRun() || !topicsExist.getAsBoolean()) {
                return;
            }
            KafkaClientService kafka = clients.get();
            Config settings = config.get();
            List<Uni<List<PartitionInfo>>> readied = kafka.getProducerChannels().stream()
                    .map(channel -> kafka.<Object, Object>getProducer(channel).partitionsFor(KafkaTopics.topic(settings, "outgoing", channel)))
                    .toList();
            Uni.join().all(readied).andFailFast().await().atMost(WITHIN);
        });
    }
}
