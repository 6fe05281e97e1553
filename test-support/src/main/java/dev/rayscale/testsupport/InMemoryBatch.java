package dev.rayscale.testsupport;

import io.smallrye.reactive.messaging.kafka.KafkaRecord;
import io.smallrye.reactive.messaging.kafka.KafkaRecordBatch;
import io.smallrye.reactive.messaging.kafka.api.IncomingKafkaRecordMetadata;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.record.TimestampType;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.eclipse.microprofile.reactive.messaging.Metadata;

/**
 * Records as a batch-consuming channel receives them from one poll, made in memory: what a service's wiring test
 * sends through SmallRye's in-memory connector, which delivers any message it is given but cannot poll a broker.
 * Each record carries the metadata a polled one does (topic, partition 0, its offset, its key) and counts its
 * acknowledgement, as the service gives it once the record's work is done.
 */
public final class InMemoryBatch implements KafkaRecordBatch<String, byte[]> {

    private final String topic;
    private final List<KafkaRecord<String, byte[]>> records = new ArrayList<>();
    private final AtomicInteger acknowledged = new AtomicInteger();
    private final AtomicInteger refused = new AtomicInteger();

    /** {@code keyedValues}: each record's key and value, in offset order from 0. */
    public InMemoryBatch(String topic, List<Map.Entry<String, byte[]>> keyedValues) {
        this.topic = topic;
        long offset = 0;
        for (Map.Entry<String, byte[]> keyed : keyedValues) {
            byte[] value = keyed.getValue();
            ConsumerRecord<String, byte[]> polled = new ConsumerRecord<>(topic, 0, offset++, System.currentTimeMillis(),
                    TimestampType.CREATE_TIME, -1, value.length, keyed.getKey(), value, new RecordHeaders(), Optional.empty());
            Message<byte[]> record = Message.of(value, Metadata.of(new IncomingKafkaRecordMetadata<>(polled, topic)))
                    .withAck(() -> {
                        acknowledged.incrementAndGet();
                        return CompletableFuture.completedFuture(null);
                    })
                    .withNack(failure -> {
                        refused.incrementAndGet();
                        return CompletableFuture.completedFuture(null);
                    });
            records.add(KafkaRecord.from(record));
        }
    }

    /** Records acknowledged so far. */
    public int acknowledged() {
        return acknowledged.get();
    }

    /** Records refused (nacked) so far: the service could neither handle nor set them aside. */
    public int refused() {
        return refused.get();
    }

    @Override
    public List<KafkaRecord<String, byte[]>> getRecords() {
        return List.copyOf(records);
    }

    @Override
    public Map<TopicPartition, KafkaRecord<String, byte[]>> getLatestOffsetRecords() {
        return records.isEmpty() ? Map.of() : Map.of(new TopicPartition(topic, 0), records.get(records.size() - 1));
    }

    @Override
    public List<byte[]> getPayload() {
        return records.stream().map(KafkaRecord::getPayload).toList();
    }

    @Override
    public Iterator<KafkaRecord<String, byte[]>> iterator() {
        return getRecords().iterator();
    }
}
