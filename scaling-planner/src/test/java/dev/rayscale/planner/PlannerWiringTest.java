package dev.rayscale.planner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.rayscale.events.ScaleDecision;
import dev.rayscale.events.Topics;
import dev.rayscale.events.codec.EventSchemas;
import dev.rayscale.testsupport.InMemoryBatch;
import dev.rayscale.testsupport.InMemoryChannels;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.smallrye.reactive.messaging.kafka.api.OutgoingKafkaRecordMetadata;
import io.smallrye.reactive.messaging.memory.InMemoryConnector;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.header.Header;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.eclipse.microprofile.reactive.messaging.spi.Connector;
import org.junit.jupiter.api.Test;

/**
 * The planner's wiring, without a broker: its three channels on SmallRye's in-memory connector, a poll's batch made in
 * memory. What only a broker shows (serialisation, CloudEvents headers, offsets, rebalances) is PlannerServiceTest's.
 */
@QuarkusTest
@TestProfile(PlannerWiringTest.WithoutBroker.class)
class PlannerWiringTest {

    public static final class WithoutBroker implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return InMemoryChannels.config(List.of(PlannerChannels.SNAPSHOTS),
                    List.of(PlannerChannels.DECISIONS, PlannerChannels.DEAD_LETTERS));
        }
    }

    @Inject
    @Connector("smallrye-in-memory")
    InMemoryConnector connector;

    @Test
    void aSnapshotBecomesADecisionKeyedByItsClusterAndPoisonIsSetAsideWithItsReason() {
        String cluster = "wiring/walkthrough-" + System.nanoTime();
        InMemoryBatch batch = new InMemoryBatch(Topics.SNAPSHOTS, List.of(
                Map.entry("wiring/poison", "{\"schemaVersion\": 9}".getBytes(StandardCharsets.UTF_8)),
                Map.entry(cluster, walkthrough(cluster))));

        connector.source(PlannerChannels.SNAPSHOTS).send(batch);

        // Each record is acknowledged only once its decision or its dead letter is out: then the sinks hold all there is.
        await().atMost(Duration.ofSeconds(20)).until(() -> batch.acknowledged() == 2);
        assertThat(batch.refused()).isZero();
        List<? extends Message<ScaleDecision>> decisions = connector.<ScaleDecision>sink(PlannerChannels.DECISIONS).received();
        assertThat(decisions).singleElement().satisfies(message -> {
            assertThat(InMemoryChannels.key(message)).isEqualTo(cluster);
            assertThat(message.getPayload().groups()).singleElement().satisfies(group -> assertThat(group.targetReplicas()).isEqualTo(15));
        });
        List<? extends Message<byte[]>> deadLetters = connector.<byte[]>sink(PlannerChannels.DEAD_LETTERS).received();
        assertThat(deadLetters).singleElement().satisfies(message -> {
            assertThat(InMemoryChannels.key(message)).isEqualTo("wiring/poison");
            Header reason = message.getMetadata(OutgoingKafkaRecordMetadata.class).orElseThrow().getHeaders().lastHeader("dead-letter-reason");
            assertThat(new String(reason.value(), StandardCharsets.UTF_8)).contains("schema version 9 is not supported");
        });
    }


    /** The walk-through snapshot (15 pending one-CPU tasks) for {@code cluster}, observed now. */
    private static byte[] walkthrough(String cluster) {
        ObjectNode document = (ObjectNode) EventSchemas.readResource("examples/cluster-snapshot/walkthrough.json");
        String[] name = cluster.split("/");
        document.withObject("cluster").put("namespace", name[0]).put("name", name[1]);
        document.put("id", cluster + "#1").put("observedAt", Instant.now().toString());
        return document.toString().getBytes(StandardCharsets.UTF_8);
    }
}
