package dev.rayscale.audit;

import dev.rayscale.events.Topics;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndTimestamp;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * Reads Rayscale's topics as they are now, from the offsets of {@code --from} to those of {@code --to}
 * (the broker's offsets-for-times, so a range costs what it holds, not the whole history), or to the
 * end offsets taken at the start. Partitions are assigned, not subscribed: no consumer group, nothing
 * committed. Records are merged across partitions by timestamp; a partition that runs ahead is paused.
 */
public final class KafkaRecords implements RecordSource {

    /** The topics a recording is made of. */
    public static final List<String> TOPICS = List.of(Topics.SNAPSHOTS, Topics.DECISIONS, Topics.ACTUATIONS,
            Topics.deadLetter("scaling-planner"), Topics.deadLetter("k8s-actuator"));

    /** Records held per partition before it is paused: with dozens of partitions of snapshots of several KiB, tens of MiB. */
    private static final int PAUSE_AT = 64;
    private static final Duration SILENCE_LIMIT = Duration.ofSeconds(60);
    private static final int HANDED_BATCH = 512;
    private static final int HANDED_BATCHES = 2;
    private static final List<Recorded> END = List.of();

    private final KafkaConsumer<String, byte[]> consumer;
    private final Selection selection;
    private final String bootstrapServers;

    /** @param client the client settings ({@code bootstrap.servers}, security, ...) as Kafka's own tools take them */
    public KafkaRecords(Properties client, Selection selection) {
        Properties config = new Properties();
        config.putAll(client);
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        config.putIfAbsent(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, "1000");
        // What a fetch may bring at once, bounded so that memory does not depend on how many partitions there are.
        config.putIfAbsent(ConsumerConfig.FETCH_MAX_BYTES_CONFIG, String.valueOf(4 << 20));
        config.putIfAbsent(ConsumerConfig.CLIENT_ID_CONFIG, "rayscale-audit");
        // How long a metadata or offsets request may take before the broker counts as unreachable (Kafka's default is 60 s).
        config.putIfAbsent(ConsumerConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "30000");
        this.bootstrapServers = config.getProperty(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG);
        this.consumer = new KafkaConsumer<>(config, new StringDeserializer(), new ByteArrayDeserializer());
        this.selection = selection;
    }

    @Override
    public String describe() {
        return "Kafka at " + bootstrapServers;
    }

    /**
     * Fetches and merges on a thread of its own and hands records on, in batches, to the calling thread: what is done with
     * them there (the audit) does not wait for the broker, nor the broker for it.
     */
    @Override
    public void forEach(Consumer<Recorded> sink) {
        BlockingQueue<List<Recorded>> handed = new ArrayBlockingQueue<>(HANDED_BATCHES);
        AtomicReference<RuntimeException> failure = new AtomicReference<>();
        AtomicBoolean stopped = new AtomicBoolean();
        Thread fetcher = new Thread(() -> {
            List<List<Recorded>> batch = new ArrayList<>(List.of(new ArrayList<>(HANDED_BATCH)));
            try {
                fetch(record -> {
                    batch.get(0).add(record);
                    if (batch.get(0).size() == HANDED_BATCH) {
                        hand(handed, batch.set(0, new ArrayList<>(HANDED_BATCH)), stopped);
                    }
                });
                hand(handed, batch.get(0), stopped);
            } catch (RuntimeException e) {
                failure.set(e);
            } finally {
                hand(handed, END, stopped);
            }
        }, "kafka-records");
        fetcher.setDaemon(true);
        fetcher.start();
        try {
            for (List<Recorded> next = take(handed); next != END; next = take(handed)) {
                next.forEach(sink);
            }
        } finally {
            stopped.set(true);
            handed.clear();
            join(fetcher);
        }
        if (failure.get() != null) {
            throw failure.get();
        }
    }

    private static void hand(BlockingQueue<List<Recorded>> handed, List<Recorded> batch, AtomicBoolean stopped) {
        try {
            while (!stopped.get() && !handed.offer(batch, 100, TimeUnit.MILLISECONDS)) {
                // the reader is busy: wait, unless it has stopped
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            stopped.set(true);
        }
    }

    private static List<Recorded> take(BlockingQueue<List<Recorded>> handed) {
        try {
            return handed.take();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while reading " + KafkaRecords.class.getSimpleName(), e);
        }
    }

    private static void join(Thread fetcher) {
        try {
            fetcher.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void fetch(Consumer<Recorded> sink) {
        Map<TopicPartition, Long> ends = bounds();
        Map<TopicPartition, ArrayDeque<ConsumerRecord<String, byte[]>>> buffers = new HashMap<>();
        ends.keySet().forEach(partition -> buffers.put(partition, new ArrayDeque<>()));
        Set<TopicPartition> reading = new HashSet<>(ends.keySet());
        Set<TopicPartition> paused = new HashSet<>();
        long lastProgress = System.nanoTime();
        while (!buffers.isEmpty()) {
            for (ConsumerRecord<String, byte[]> record : consumer.poll(Duration.ofMillis(200))) {
                TopicPartition partition = new TopicPartition(record.topic(), record.partition());
                if (record.offset() < ends.get(partition)) {
                    buffers.get(partition).add(record);
                }
                lastProgress = System.nanoTime();
            }
            for (TopicPartition partition : List.copyOf(reading)) {
                if (consumer.position(partition) >= ends.get(partition)) {
                    reading.remove(partition);
                    consumer.pause(List.of(partition));
                }
            }
            emitMerged(buffers, reading, sink);
            buffers.entrySet().removeIf(entry -> !reading.contains(entry.getKey()) && entry.getValue().isEmpty());
            flowControl(buffers, reading, paused);
            if (!reading.isEmpty() && System.nanoTime() - lastProgress > SILENCE_LIMIT.toNanos()) {
                throw new IllegalStateException("no records from " + bootstrapServers + " for " + SILENCE_LIMIT.toSeconds()
                        + " s while " + reading + " had more to read");
            }
        }
    }

    /** Emits records in timestamp order for as long as every partition still being read has one buffered. */
    private void emitMerged(Map<TopicPartition, ArrayDeque<ConsumerRecord<String, byte[]>>> buffers, Set<TopicPartition> reading,
            Consumer<Recorded> sink) {
        PriorityQueue<TopicPartition> heads = new PriorityQueue<>(Comparator
                .comparingLong((TopicPartition partition) -> buffers.get(partition).peek().timestamp())
                .thenComparingInt(partition -> TOPICS.indexOf(partition.topic()))
                .thenComparingInt(TopicPartition::partition));
        buffers.forEach((partition, buffer) -> {
            if (!buffer.isEmpty()) {
                heads.add(partition);
            }
        });
        while (!heads.isEmpty()) {
            if (reading.stream().anyMatch(partition -> buffers.get(partition).isEmpty())) {
                return;
            }
            TopicPartition next = heads.poll();
            ArrayDeque<ConsumerRecord<String, byte[]>> buffer = buffers.get(next);
            ConsumerRecord<String, byte[]> record = buffer.poll();
            if (selection.includesKey(record.key()) && selection.includesTime(record.timestamp())) {
                sink.accept(new Recorded(record.topic(), record.partition(), record.offset(), 0, record.timestamp(), record.key(),
                        detached(record.headers()), record.value()));
            }
            if (!buffer.isEmpty()) {
                heads.add(next);
            }
        }
    }

    /**
     * The headers as arrays of their own: a header read from a fetch is a view of the whole fetched buffer, and a record
     * held (the audit holds a cluster's newest snapshots) would hold all of it.
     */
    private static Headers detached(Headers headers) {
        RecordHeaders copy = new RecordHeaders();
        for (Header header : headers) {
            copy.add(header.key(), header.value());
        }
        return copy;
    }

    private void flowControl(Map<TopicPartition, ArrayDeque<ConsumerRecord<String, byte[]>>> buffers, Set<TopicPartition> reading,
            Set<TopicPartition> paused) {
        for (TopicPartition partition : reading) {
            int buffered = buffers.get(partition).size();
            if (buffered >= PAUSE_AT && paused.add(partition)) {
                consumer.pause(List.of(partition));
            } else if (buffered < PAUSE_AT / 4 && paused.remove(partition)) {
                consumer.resume(List.of(partition));
            }
        }
    }

    /** Assigns the partitions that hold something in the range, seeks each to its start, and returns each one's end offset. */
    private Map<TopicPartition, Long> bounds() {
        List<TopicPartition> partitions = new ArrayList<>();
        Map<String, List<PartitionInfo>> topics = consumer.listTopics();
        for (String topic : TOPICS) {
            topics.getOrDefault(topic, List.of()).forEach(info -> partitions.add(new TopicPartition(topic, info.partition())));
        }
        Map<TopicPartition, Long> starts = offsetsAt(partitions, selection.from() == null ? null : selection.from().toEpochMilli(),
                consumer.beginningOffsets(partitions));
        Map<TopicPartition, Long> latest = consumer.endOffsets(partitions);
        Map<TopicPartition, Long> ends = offsetsAt(partitions, selection.to() == null ? null : selection.to().toEpochMilli(), latest);
        Map<TopicPartition, Long> range = new HashMap<>();
        for (TopicPartition partition : partitions) {
            if (starts.get(partition) < ends.get(partition)) {
                range.put(partition, ends.get(partition));
            }
        }
        consumer.assign(range.keySet());
        range.keySet().forEach(partition -> consumer.seek(partition, starts.get(partition)));
        return range;
    }

    /** The first offset at or after {@code time} per partition, the fallback where there is none (or no time). */
    private Map<TopicPartition, Long> offsetsAt(List<TopicPartition> partitions, Long time, Map<TopicPartition, Long> fallback) {
        if (time == null) {
            return fallback;
        }
        Map<TopicPartition, Long> query = new HashMap<>();
        partitions.forEach(partition -> query.put(partition, time));
        Map<TopicPartition, OffsetAndTimestamp> found = consumer.offsetsForTimes(query);
        Map<TopicPartition, Long> end = consumer.endOffsets(partitions);
        Map<TopicPartition, Long> offsets = new HashMap<>();
        for (TopicPartition partition : partitions) {
            OffsetAndTimestamp at = found.get(partition);
            offsets.put(partition, at != null ? at.offset() : end.get(partition));
        }
        return offsets;
    }

    @Override
    public void close() {
        consumer.close(Duration.ofSeconds(5));
    }
}
