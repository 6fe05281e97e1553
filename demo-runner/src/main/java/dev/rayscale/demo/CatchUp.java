package dev.rayscale.demo;

import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;

/**
 * Whether the loop is working again after a fault: the collector has published a snapshot observed
 * after a given instant, and the planner's and the actuator's consumer groups have since committed
 * every record their topics held when that snapshot was seen. (Records keep coming, so "no lag at all"
 * may never be seen on a busy topic; "past a mark" is what catching up means.) Anything the broker
 * cannot answer counts as not caught up yet.
 */
final class CatchUp implements AutoCloseable {

    private final Admin admin;
    private final AuditTrail trail;
    private final Map<String, String> groupTopics;
    /** The topics' ends before the run: a new group starts at the end, so what lies before is not its to commit. */
    private final Map<TopicPartition, Long> before;

    /** @param groupTopics each consumer group and the topic it reads */
    CatchUp(String bootstrapServers, AuditTrail trail, Map<String, String> groupTopics) {
        this.admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 2_000, AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 3_000));
        this.trail = trail;
        this.groupTopics = Map.copyOf(groupTopics);
        Map<TopicPartition, Long> ends = ends();
        this.before = ends == null ? Map.of() : ends;
    }

    /** Waits until the loop has caught up after {@code instant}, or {@code stop} says to give up; false if it gave up. */
    boolean await(Instant instant, BooleanSupplier stop) throws InterruptedException {
        Map<TopicPartition, Long> mark = null;
        while (!stop.getAsBoolean()) {
            if (mark == null && trail.lastSnapshotAt().isAfter(instant)) {
                mark = ends();
            }
            if (mark != null && committedPast(mark)) {
                return true;
            }
            Thread.sleep(100);
        }
        return false;
    }

    /** Members of a consumer group now, or -1 if the broker cannot say. */
    int members(String group) {
        try {
            return admin.describeConsumerGroups(List.of(group)).all().get(3, TimeUnit.SECONDS).get(group).members().size();
        } catch (ExecutionException | TimeoutException | KafkaException e) {
            return -1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return -1;
        }
    }

    /** The end offset of every partition of the groups' topics now, or null if the broker cannot say. */
    private Map<TopicPartition, Long> ends() {
        try {
            Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
            Topics.partitions(admin, groupTopics.values()).forEach((topic, partitions) -> {
                for (int partition = 0; partition < partitions; partition++) {
                    latest.put(new TopicPartition(topic, partition), OffsetSpec.latest());
                }
            });
            Map<TopicPartition, Long> ends = new HashMap<>();
            for (Map.Entry<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo> end
                    : admin.listOffsets(latest).all().get(3, TimeUnit.SECONDS).entrySet()) {
                ends.put(end.getKey(), end.getValue().offset());
            }
            return ends;
        } catch (ExecutionException | TimeoutException | KafkaException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    private boolean committedPast(Map<TopicPartition, Long> mark) {
        try {
            for (Map.Entry<String, String> entry : groupTopics.entrySet()) {
                Map<TopicPartition, OffsetAndMetadata> committed = admin.listConsumerGroupOffsets(entry.getKey())
                        .partitionsToOffsetAndMetadata().get(3, TimeUnit.SECONDS);
                for (Map.Entry<TopicPartition, Long> end : mark.entrySet()) {
                    OffsetAndMetadata at = committed.get(end.getKey());
                    long start = before.getOrDefault(end.getKey(), 0L);
                    if (end.getKey().topic().equals(entry.getValue()) && (at == null ? start : at.offset()) < end.getValue()) {
                        return false;
                    }
                }
            }
            return true;
        } catch (ExecutionException | TimeoutException | KafkaException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    @Override
    public void close() {
        admin.close(Duration.ofSeconds(2));
    }
}
