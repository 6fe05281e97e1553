package dev.rayscale.audit;

import dev.rayscale.events.Topics;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Properties;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndTimestamp;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * Reads Rayscale's topics as they are now, from the offsets of {@code --from} to those of {@code --to}
 * (the broker's offsets-for-times, so a range costs what it holds, not the whole history), or to the
 * end offsets taken at the start. Partitions are assigned, not subscribed: no consumer group, nothing
 * committed. Records are merged across partitions by timestamp; a partition that runs ahead is paused.
 * <p>
 * A record's timestamp is its producer's clock, so a partition's timestamps are not in offset order: a record retried
 * for minutes, or sent by a replica whose clock is behind, lands after records stamped later. {@code --from}'s offset is
 * exact (the first record stamped at or after it; any later one stamped before is filtered out), but {@code --to}'s is
 * not: records stamped before it can follow the first one stamped after it. So a partition is read on to the first
 * record stamped {@link #OUT_OF_ORDER} after {@code --to}, and what lies beyond the range is filtered out.
 */
public final class KafkaRecords implements RecordSource {

    /** The topics a recording is made of. */
    public static final List<String> TOPICS = List.of(Topics.SNAPSHOTS, Topics.DECISIONS, Topics.ACTUATIONS,
            Topics.deadLetter("scaling-planner"), Topics.deadLetter("k8s-actuator"));

    /**
     * Records held per partition before it is paused. Every record held waiting to be merged outlives young collections,
     * so what is held is kept small: a partition holds at most this many plus one poll's.
     */
    private static final int PAUSE_AT = 32;
    /**
     * How far out of order a partition's timestamps are read past {@code --to}: an hour, as far ahead of the broker's clock
     * as a broker (4.0 and later, {@code log.message.timestamp.after.max.ms}) accepts a record's timestamp, and far beyond
     * a producer's retries (two minutes, {@code delivery.timeout.ms}) and any clock skew worth the name.
     */
    static final Duration OUT_OF_ORDER = Duration.ofHours(1);
    private static final Duration SILENCE_LIMIT = Duration.ofSeconds(60);
    private static final int HANDED_BATCH = 256;
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
        // A poll brings up to this many records of one partition before its pause takes effect (a compressed fetch holds
        // thousands). With 1,000 a history read from 30 partitions held ~11,000 records, 55 MiB, waiting to be merged, and
        // a third of the run went to full collections; with 100 they are a tenth as many and the audit takes 40 % less.
        config.putIfAbsent(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, "100");
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

    /** One partition being read: where it ends, and its records fetched but not yet handed on. */
    private static final class Feed {
        final TopicPartition partition;
        final int topicRank;
        final long end;
        final ArrayDeque<Recorded> buffered = new ArrayDeque<>();
        boolean reading = true;
        boolean paused;

        Feed(TopicPartition partition, long end) {
            this.partition = partition;
            this.topicRank = TOPICS.indexOf(partition.topic());
            this.end = end;
        }

        long headTime() {
            return buffered.peek().timestamp();
        }

        boolean starving() {
            return reading && buffered.isEmpty();
        }
    }

    private static final Comparator<Feed> OLDEST_HEAD = Comparator.comparingLong(Feed::headTime)
            .thenComparingInt(feed -> feed.topicRank).thenComparingInt(feed -> feed.partition.partition());

    private void fetch(Consumer<Recorded> sink) {
        Map<TopicPartition, Feed> feeds = new HashMap<>();
        bounds().forEach((partition, end) -> feeds.put(partition, new Feed(partition, end)));
        long lastProgress = System.nanoTime();
        while (!feeds.isEmpty()) {
            ConsumerRecords<String, byte[]> fetched = consumer.poll(Duration.ofMillis(200));
            for (TopicPartition partition : fetched.partitions()) {
                Feed feed = feeds.get(partition);
                for (ConsumerRecord<String, byte[]> record : fetched.records(partition)) {
                    if (record.offset() < feed.end && selection.includesKey(record.key()) && selection.includesTime(record.timestamp())) {
                        feed.buffered.add(recorded(record));
                    }
                }
                lastProgress = System.nanoTime();
            }
            for (Feed feed : feeds.values()) {
                if (feed.reading && consumer.position(feed.partition) >= feed.end) {
                    feed.reading = false;
                    consumer.pause(List.of(feed.partition));
                }
            }
            emitMerged(feeds.values(), sink);
            feeds.values().removeIf(feed -> !feed.reading && feed.buffered.isEmpty());
            flowControl(feeds.values());
            if (feeds.values().stream().anyMatch(feed -> feed.reading) && System.nanoTime() - lastProgress > SILENCE_LIMIT.toNanos()) {
                throw new IllegalStateException("no records from " + bootstrapServers + " for " + SILENCE_LIMIT.toSeconds()
                        + " s while " + feeds.values().stream().filter(feed -> feed.reading).map(feed -> feed.partition).toList()
                        + " had more to read");
            }
        }
    }

    /**
     * The record with headers of its own, taken as soon as it is fetched: a fetched header is a view of the whole fetch
     * response (MiBs), and records wait here to be merged, and the audit holds some, long enough to keep many responses alive.
     */
    private static Recorded recorded(ConsumerRecord<String, byte[]> record) {
        RecordHeaders headers = new RecordHeaders();
        for (Header header : record.headers()) {
            headers.add(header.key(), header.value());
        }
        return new Recorded(record.topic(), record.partition(), record.offset(), 0, record.timestamp(), record.key(), headers,
                record.value());
    }

    /** Hands records on in timestamp order for as long as every partition still being read has one buffered. */
    private static void emitMerged(Collection<Feed> feeds, Consumer<Recorded> sink) {
        if (feeds.stream().anyMatch(Feed::starving)) {
            return;
        }
        PriorityQueue<Feed> heads = new PriorityQueue<>(OLDEST_HEAD);
        feeds.stream().filter(feed -> !feed.buffered.isEmpty()).forEach(heads::add);
        while (!heads.isEmpty()) {
            Feed next = heads.poll();
            sink.accept(next.buffered.poll());
            if (next.starving()) {
                return;
            }
            if (!next.buffered.isEmpty()) {
                heads.add(next);
            }
        }
    }

    private void flowControl(Collection<Feed> feeds) {
        for (Feed feed : feeds) {
            if (!feed.reading) {
                continue;
            }
            int buffered = feed.buffered.size();
            if (buffered >= PAUSE_AT && !feed.paused) {
                feed.paused = true;
                consumer.pause(List.of(feed.partition));
            } else if (buffered < PAUSE_AT / 4 && feed.paused) {
                feed.paused = false;
                consumer.resume(List.of(feed.partition));
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
        Map<TopicPartition, Long> latest = consumer.endOffsets(partitions);
        Map<TopicPartition, Long> starts = selection.from() == null ? consumer.beginningOffsets(partitions)
                : offsetsAt(partitions, selection.from(), latest);
        Map<TopicPartition, Long> ends = selection.to() == null ? latest : offsetsAt(partitions, selection.to().plus(OUT_OF_ORDER), latest);
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

    /** The first offset stamped at or after {@code time} per partition, its end offset where none is. */
    private Map<TopicPartition, Long> offsetsAt(List<TopicPartition> partitions, Instant time, Map<TopicPartition, Long> ends) {
        Map<TopicPartition, Long> query = new HashMap<>();
        partitions.forEach(partition -> query.put(partition, time.toEpochMilli()));
        Map<TopicPartition, OffsetAndTimestamp> found = consumer.offsetsForTimes(query);
        Map<TopicPartition, Long> offsets = new HashMap<>();
        for (TopicPartition partition : partitions) {
            OffsetAndTimestamp at = found.get(partition);
            offsets.put(partition, at != null ? at.offset() : ends.get(partition));
        }
        return offsets;
    }

    @Override
    public void close() {
        consumer.close(Duration.ofSeconds(5));
    }
}
