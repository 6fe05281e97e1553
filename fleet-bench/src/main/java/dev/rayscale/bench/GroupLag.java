package dev.rayscale.bench;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.jboss.logging.Logger;

/** The consumer lag of the services' groups (records on their partitions past the group's committed offset), largest seen per group. */
final class GroupLag implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(GroupLag.class);

    private final Admin admin;
    private final List<String> groups;
    private final Map<String, Long> max = new HashMap<>();

    GroupLag(String bootstrapServers, List<String> groups) {
        this.admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers));
        this.groups = groups;
    }

    synchronized void sample() {
        for (String group : groups) {
            try {
                Map<TopicPartition, OffsetAndMetadata> committed = admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata()
                        .get(5, TimeUnit.SECONDS);
                Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
                committed.keySet().forEach(partition -> latest.put(partition, OffsetSpec.latest()));
                Map<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo> ends = admin.listOffsets(latest).all().get(5, TimeUnit.SECONDS);
                long lag = 0;
                for (Map.Entry<TopicPartition, OffsetAndMetadata> entry : committed.entrySet()) {
                    if (entry.getValue() != null) {
                        lag += Math.max(0, ends.get(entry.getKey()).offset() - entry.getValue().offset());
                    }
                }
                max.merge(group, lag, Math::max);
            } catch (ExecutionException | TimeoutException e) {
                LOG.debugf("lag of %s not read this time: %s", group, e.getMessage());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /** The largest lag seen, by group. */
    synchronized Map<String, Long> max() {
        return Map.copyOf(max);
    }

    @Override
    public void close() {
        admin.close();
    }
}
