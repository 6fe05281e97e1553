package dev.rayscale.testsupport;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import io.quarkus.test.kafka.InjectKafkaCompanion;
import io.smallrye.reactive.messaging.kafka.companion.KafkaCompanion;
import java.util.Map;

/**
 * Gives a {@code @QuarkusTest} a real Kafka broker ({@link TestKafka}): sets
 * {@code kafka.bootstrap.servers} and injects a {@link KafkaCompanion} into fields annotated with
 * {@link InjectKafkaCompanion}. Use with {@code @WithTestResource(KafkaBrokerResource.class)}.
 */
public class KafkaBrokerResource implements QuarkusTestResourceLifecycleManager {

    private KafkaCompanion companion;

    @Override
    public Map<String, String> start() {
        String bootstrap = TestKafka.bootstrapServers();
        companion = new KafkaCompanion(bootstrap);
        return Map.of("kafka.bootstrap.servers", bootstrap);
    }

    @Override
    public void inject(TestInjector testInjector) {
        testInjector.injectIntoFields(companion, new TestInjector.AnnotatedAndMatchesType(InjectKafkaCompanion.class, KafkaCompanion.class));
    }

    @Override
    public void stop() {
        if (companion != null) {
            companion.close();
        }
        // The broker itself is shared by the whole test JVM and closes when it exits.
    }
}
