package dev.rayscale.service;

import io.smallrye.mutiny.Uni;
import io.smallrye.reactive.messaging.kafka.KafkaConsumer;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerGroupMetadata;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;

/** SmallRye's consumer as it is, except that the offsets of a commit that fails are owed ({@link OwedCommits}). */
final class CommitNotingConsumer<K, V> implements KafkaConsumer<K, V> {

    private final KafkaConsumer<K, V> consumer;
    private final OwedCommits owed;

    CommitNotingConsumer(KafkaConsumer<K, V> consumer, OwedCommits owed) {
        this.consumer = consumer;
        this.owed = owed;
    }

    @Override
    public Uni<Void> commit(Map<TopicPartition, OffsetAndMetadata> offsets) {
        return consumer.commit(offsets).onFailure().invoke(failure -> owed.failed(offsets));
    }

    @Override
    public Uni<Void> commitAsync(Map<TopicPartition, OffsetAndMetadata> offsets) {
        return consumer.commitAsync(offsets).onFailure().invoke(failure -> owed.failed(offsets));
    }

    @Override
    public Map<String, ?> configuration() {
        return consumer.configuration();
    }

    @Override
    public <R> Uni<R> runOnPollingThread(Function<Consumer<K, V>, R> action) {
        return consumer.runOnPollingThread(action);
    }

    @Override
    public Uni<Void> runOnPollingThread(java.util.function.Consumer<Consumer<K, V>> action) {
        return consumer.runOnPollingThread(action);
    }

    @Override
    public Uni<Set<TopicPartition>> pause() {
        return consumer.pause();
    }

    @Override
    public Uni<Set<TopicPartition>> paused() {
        return consumer.paused();
    }

    @Override
    public Uni<Map<TopicPartition, OffsetAndMetadata>> committed(TopicPartition... partitions) {
        return consumer.committed(partitions);
    }

    @Override
    public Uni<Void> resume() {
        return consumer.resume();
    }

    @Override
    public Consumer<K, V> unwrap() {
        return consumer.unwrap();
    }

    @Override
    public Uni<Map<TopicPartition, Long>> getPositions() {
        return consumer.getPositions();
    }

    @Override
    public Uni<Set<TopicPartition>> getAssignments() {
        return consumer.getAssignments();
    }

    @Override
    public Uni<Void> seek(TopicPartition partition, long offset) {
        return consumer.seek(partition, offset);
    }

    @Override
    public Uni<Void> seek(TopicPartition partition, OffsetAndMetadata offset) {
        return consumer.seek(partition, offset);
    }

    @Override
    public Uni<Void> seekToBeginning(Collection<TopicPartition> partitions) {
        return consumer.seekToBeginning(partitions);
    }

    @Override
    public Uni<Void> seekToEnd(Collection<TopicPartition> partitions) {
        return consumer.seekToEnd(partitions);
    }

    @Override
    public Uni<ConsumerGroupMetadata> consumerGroupMetadata() {
        return consumer.consumerGroupMetadata();
    }

    @Override
    public Uni<Void> resetToLastCommittedPositions() {
        return consumer.resetToLastCommittedPositions();
    }

    @Override
    public Uni<Map<String, List<PartitionInfo>>> lisTopics() {
        return consumer.lisTopics();
    }

    @Override
    public Uni<Map<String, List<PartitionInfo>>> lisTopics(Duration timeout) {
        return consumer.lisTopics(timeout);
    }

    @Override
    public Uni<List<PartitionInfo>> partitionsFor(String topic) {
        return consumer.partitionsFor(topic);
    }
}
