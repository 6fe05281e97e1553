package dev.rayscale.service;

import static org.assertj.core.api.Assertions.assertThat;

import io.smallrye.mutiny.Uni;
import io.smallrye.reactive.messaging.kafka.KafkaClientService;
import io.smallrye.reactive.messaging.kafka.KafkaProducer;
import java.lang.reflect.Proxy;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import org.eclipse.microprofile.config.Config;
import org.junit.jupiter.api.Test;

class ProducerWarmupTest {

    /** Topics asked for, "channel -> topic". */
    private final List<String> asked = new CopyOnWriteArrayList<>();

    @Test
    void asksEveryProducerForItsChannelsTopicTheChannelsNameWhenNoneIsSet() {
        KafkaClientService clients = clients(Set.of("decisions", "dead-letters"));
        Config config = config(Map.of("mp.messaging.outgoing.decisions.topic", "rayscale.decisions"));
        ProducerWarmup.step(() -> clients, () -> config, () -> true).run().run();

        assertThat(asked).containsExactlyInAnyOrder("decisions -> rayscale.decisions", "dead-letters -> dead-letters");
    }

    @Test
    void leavesTheProducersAloneWhileTheirTopicsCannotBeFound() {
        KafkaClientService clients = clients(Set.of("decisions", "dead-letters"));
        Config config = config(Map.of("mp.messaging.outgoing.decisions.topic", "rayscale.decisions"));

        ProducerWarmup.step(() -> clients, () -> config, () -> false).run().run();

        assertThat(asked).as("a producer asked for a topic it cannot find holds its sending thread for minutes").isEmpty();
    }

    @Test
    void aTrainingRunReachesForNoBroker() {
        System.setProperty(BackgroundWarmup.TRAINING_RUN, "true");
        try {
            KafkaClientService clients = clients(Set.of("decisions"));
            Config config = config(Map.of());
            ProducerWarmup.step(() -> clients, () -> config, () -> true).run().run();
        } finally {
            System.clearProperty(BackgroundWarmup.TRAINING_RUN);
        }

        assertThat(asked).isEmpty();
    }

    private KafkaClientService clients(Set<String> channels) {
        return proxy(KafkaClientService.class, (method, args) -> switch (method) {
            case "getProducerChannels" -> channels;
            case "getProducer" -> producer((String) args[0]);
            default -> throw new UnsupportedOperationException(method);
        });
    }

    private KafkaProducer<?, ?> producer(String channel) {
        return proxy(KafkaProducer.class, (method, args) -> {
            if (!method.equals("partitionsFor")) {
                throw new UnsupportedOperationException(method);
            }
            asked.add(channel + " -> " + args[0]);
            return Uni.createFrom().item(List.of());
        });
    }

    private static Config config(Map<String, String> values) {
        return proxy(Config.class, (method, args) -> {
            if (!method.equals("getOptionalValue")) {
                throw new UnsupportedOperationException(method);
            }
            return Optional.ofNullable(values.get((String) args[0]));
        });
    }

    private interface Answer {
        Object answer(String method, Object[] args);
    }

    private static <T> T proxy(Class<T> type, Answer answer) {
        return type.cast(Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type},
                (self, method, args) -> answer.answer(method.getName(), args)));
    }
}
