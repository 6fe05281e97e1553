package dev.rayscale.testsupport;

import java.util.List;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.stream.Stream;
import org.apache.kafka.common.test.KafkaClusterTestKit;
import org.apache.kafka.common.test.TestKitNodes;

/**
 * A real single-node Kafka broker (KRaft, combined broker and controller) running inside this JVM,
 * for machines without a Docker engine. Ready in a few seconds; its data lives in a temporary folder.
 */
public final class EmbeddedKafkaBroker implements AutoCloseable {

    /** The broker logs some 1,500 lines at INFO; held here so the level survives garbage collection. */
    private static final List<Logger> QUIETED = Stream.of("kafka", "org.apache.kafka", "state.change.logger")
            .map(Logger::getLogger).toList();

    private final KafkaClusterTestKit cluster;

    private EmbeddedKafkaBroker(KafkaClusterTestKit cluster) {
        this.cluster = cluster;
    }

    public static EmbeddedKafkaBroker start() {
        QUIETED.forEach(logger -> logger.setLevel(Level.WARNING));
        try {
            KafkaClusterTestKit cluster = new KafkaClusterTestKit.Builder(new TestKitNodes.Builder()
                            .setCombined(true)
                            .setNumBrokerNodes(1)
                            .setNumControllerNodes(1)
                            .build())
                    .setConfigProp("offsets.topic.replication.factor", "1")
                    .setConfigProp("offsets.topic.num.partitions", "1")
                    .setConfigProp("transaction.state.log.replication.factor", "1")
                    .setConfigProp("transaction.state.log.min.isr", "1")
                    .setConfigProp("share.coordinator.state.topic.replication.factor", "1")
                    .setConfigProp("share.coordinator.state.topic.min.isr", "1")
                    .setConfigProp("group.initial.rebalance.delay.ms", "0")
                    .setConfigProp("num.partitions", "3")
                    .build();
            cluster.format();
            cluster.startup();
            cluster.waitForReadyBrokers();
            return new EmbeddedKafkaBroker(cluster);
        } catch (Exception e) {
            throw new IllegalStateException("could not start the in-JVM Kafka broker", e);
        }
    }

    public String bootstrapServers() {
        return cluster.bootstrapServers();
    }

    @Override
    public void close() {
        try {
            cluster.close();
        } catch (Exception e) {
            throw new IllegalStateException("could not stop the in-JVM Kafka broker", e);
        }
    }
}
