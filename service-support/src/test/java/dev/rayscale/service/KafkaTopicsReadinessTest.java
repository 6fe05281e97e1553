package dev.rayscale.service;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rayscale.testsupport.TestKafka;
import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfigBuilder;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.junit.jupiter.api.Test;

class KafkaTopicsReadinessTest {

    @Test
    void unreadyWhileATopicIsMissingAndReadyOnceItIsMade() throws Exception {
        String prefix = "rayscale.readiness-" + UUID.randomUUID();
        String made = prefix + ".snapshots";
        String missing = prefix + ".decisions";
        Map<String, Object> kafka = Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, TestKafka.bootstrapServers(), "group.id", "ignored");
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, TestKafka.bootstrapServers()))) {
            admin.createTopics(List.of(new NewTopic(made, 1, (short) 1))).all().get(30, TimeUnit.SECONDS);
            KafkaTopicsReadiness readiness = new KafkaTopicsReadiness(kafka, Set.of(made, missing));

            HealthCheckResponse before = readiness.call();
            assertThat(before.getStatus()).isEqualTo(HealthCheckResponse.Status.DOWN);
            assertThat(before.getData()).hasValueSatisfying(data -> assertThat(data).containsEntry("missing", missing));
            assertThat(readiness.call().getStatus()).as("asking does not make the topic").isEqualTo(HealthCheckResponse.Status.DOWN);

            admin.createTopics(List.of(new NewTopic(missing, 1, (short) 1))).all().get(30, TimeUnit.SECONDS);
            assertThat(readiness.call().getStatus()).isEqualTo(HealthCheckResponse.Status.UP);
            readiness.close();
        }
    }

    @Test
    void unreadyWithTheReasonWhenTheBrokerCannotBeAsked() {
        KafkaTopicsReadiness readiness = new KafkaTopicsReadiness(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:1"),
                Set.of("rayscale.snapshots"));

        HealthCheckResponse response = readiness.call();

        assertThat(response.getStatus()).isEqualTo(HealthCheckResponse.Status.DOWN);
        assertThat(response.getData()).hasValueSatisfying(data -> assertThat((String) data.get("reason")).startsWith("cannot list the broker's topics"));
        readiness.close();
    }

    @Test
    void theTopicsAreThoseOfTheKafkaChannels() {
        Config config = new SmallRyeConfigBuilder().withSources(new PropertiesConfigSource(Map.of(
                "mp.messaging.incoming.snapshots.connector", "smallrye-kafka",
                "mp.messaging.incoming.snapshots.topic", "rayscale.snapshots",
                "mp.messaging.outgoing.decisions.connector", "smallrye-kafka",
                "mp.messaging.outgoing.decisions.topic", "rayscale.decisions",
                "mp.messaging.outgoing.dead-letters.connector", "smallrye-kafka",
                "mp.messaging.outgoing.in-memory.connector", "smallrye-in-memory",
                "mp.messaging.incoming.decisions$1.group.instance.id", "planner-1"), "test", 100)).build();

        assertThat(KafkaTopics.used(config)).containsExactly("dead-letters", "rayscale.decisions", "rayscale.snapshots");
    }
}
