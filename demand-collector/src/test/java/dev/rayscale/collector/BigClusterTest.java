package dev.rayscale.collector;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.rayscale.events.ClusterSnapshot;
import dev.rayscale.events.Topics;
import dev.rayscale.events.codec.EventCodec;
import dev.rayscale.gcs.proto.NodeStatus;
import dev.rayscale.sim.FakeGcs;
import dev.rayscale.sim.GcsStates;
import dev.rayscale.testsupport.KafkaBrokerResource;
import dev.rayscale.testsupport.RayClusterCrd;
import dev.rayscale.testsupport.RayClusters;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.kafka.InjectKafkaCompanion;
import io.quarkus.test.kubernetes.client.WithKubernetesTestServer;
import io.ray.v1.RayCluster;
import io.smallrye.reactive.messaging.kafka.companion.ConsumerTask;
import io.smallrye.reactive.messaging.kafka.companion.KafkaCompanion;
import jakarta.inject.Inject;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.zip.GZIPOutputStream;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

/**
 * A cluster far larger than Ray's own examples goes through the collector whole: 5,000 worker nodes and 100,000
 * pending demand entries of distinct shapes (the GCS sends one entry per shape). The GCS's reply alone is larger than
 * gRPC's default 4 MiB limit, and the snapshot larger than Kafka's default 1 MiB record: it is read, compressed on the
 * wire and published, not dropped.
 */
@QuarkusTest
@WithTestResource(KafkaBrokerResource.class)
@WithKubernetesTestServer(crud = true, setup = RayClusterCrd.class)
class BigClusterTest {

    static final int WORKERS = 5_000;
    static final int SHAPES = 100_000;
    /** The chart's topics.strimzi.maxMessageBytes: what the broker takes per (compressed) record batch. */
    static final int TOPIC_MAX_MESSAGE_BYTES = 1 << 20;

    @InjectKafkaCompanion
    KafkaCompanion kafka;

    @Inject
    KubernetesClient kubernetes;

    @Test
    void aFiveThousandNodeClusterWithAHundredThousandDemandEntriesIsPublishedWhole() throws IOException {
        RayCluster cluster = RayClusters.walkthrough("default", "big-" + Long.toHexString(System.nanoTime()).substring(6));
        String key = cluster.getMetadata().getNamespace() + "/" + cluster.getMetadata().getName();
        GcsStates state = state(cluster, WORKERS, SHAPES);
        try (FakeGcs gcs = FakeGcs.start(); ConsumerTask<String, byte[]> snapshots = kafka.consume(String.class, byte[].class)
                // Only this cluster's: a broker that outlives a test run holds earlier runs' big snapshots too.
                .fromTopics(Topics.SNAPSHOTS, records -> records.select().where(record -> key.equals(record.key())))) {
            gcs.serve(state.build());
            cluster.getMetadata().getAnnotations().put("rayscale.dev/gcs-address", gcs.address());
            long created = System.currentTimeMillis();
            kubernetes.resources(RayCluster.class).inNamespace("default").resource(cluster).create();

            await().atMost(Duration.ofSeconds(60)).until(() -> snapshots.getRecords().stream()
                    .anyMatch(record -> key.equals(record.key()) && EventCodec.SNAPSHOTS.decode(record.value()).hasRayState()));
            ConsumerRecord<String, byte[]> record = snapshots.getRecords().stream()
                    .filter(r -> key.equals(r.key()) && EventCodec.SNAPSHOTS.decode(r.value()).hasRayState()).findFirst().orElseThrow();
            ClusterSnapshot snapshot = EventCodec.SNAPSHOTS.decode(record.value());

            assertThat(snapshot.nodes()).hasSize(WORKERS);
            assertThat(snapshot.demand().tasks()).hasSize(SHAPES);
            int compressed = gzip(record.value()).length;
            // The figures, and the snapshot for `./rayscale plan --snapshot target/big-cluster.snapshot.json --bench N`.
            System.out.printf("[big-cluster] %d nodes, %d demand entries: snapshot %d bytes, %d gzip; on the broker %d ms after the "
                    + "cluster was created%n", snapshot.nodes().size(), snapshot.demand().tasks().size(), record.value().length, compressed,
                    record.timestamp() - created);
            Files.write(Path.of("target", "big-cluster.snapshot.json"), record.value());
            assertThat(record.value().length).as("larger than Kafka's default record: the case this test is for").isGreaterThan(1 << 20);
            assertThat(compressed).as("fits the topic once compressed").isLessThan(TOPIC_MAX_MESSAGE_BYTES);
        }
    }

    /** A GCS state of {@code workers} running workers, partly busy, and {@code shapes} pending task shapes. */
    static GcsStates state(RayCluster cluster, int workers, int shapes) {
        GcsStates state = GcsStates.state(1);
        for (int i = 0; i < workers; i++) {
            state.node("node-" + i, cluster.getMetadata().getName() + "-small-group-worker-" + i, "small-group",
                    NodeStatus.RUNNING, Map.of("CPU", 8.0, "memory", 34359738368.0),
                    Map.of("CPU", (double) (i % 9), "memory", 17179869184.0), 0);
        }
        for (int i = 0; i < shapes; i++) {
            state.tasks(Map.of("CPU", 1.0, "memory", 1048576.0 * (i + 1)), 1 + i % 3);
        }
        return state;
    }

    private static byte[] gzip(byte[] value) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (GZIPOutputStream zip = new GZIPOutputStream(out)) {
            zip.write(value);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }
}
