package dev.rayscale.service;

import dev.rayscale.events.RayscaleEvent;
import dev.rayscale.events.codec.EventDeserializer;
import dev.rayscale.events.codec.InvalidEventException;
import dev.rayscale.events.codec.UnsupportedSchemaVersionException;
import io.micrometer.core.instrument.MeterRegistry;
import io.smallrye.reactive.messaging.kafka.api.IncomingKafkaRecordMetadata;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.ToLongFunction;
import org.apache.kafka.common.header.Headers;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.jboss.logging.Logger;

/**
 * Reads one event type from a Kafka channel consumed as raw bytes. A record that cannot be read — not
 * JSON, not the schema, an unknown version, CloudEvents headers that do not match it, a key that is not
 * its cluster — or whose handling fails, is set aside on the service's dead-letter topic with the
 * reason ({@link DeadLetters}) and acknowledged: no single record can stop the channel. Only if the
 * dead letter itself cannot be written (the broker is gone) does the record fail, so that it is read
 * again rather than lost.
 *
 * <p>Setting aside does not hold up the records behind: up to {@value #PIPELINED_DEAD_LETTERS} dead
 * letters may be on their way at once, each record acknowledged only once its dead letter is written
 * (offsets are committed only past acknowledged records, so nothing is skipped). A burst of bad records
 * then costs the good ones behind it little.
 *
 * <p>An event that reads well can still be refused by the service's admission check (a decision no planner can have
 * made, say): it is set aside the same way, counted as {@code refused}.
 *
 * <p>Counts every record in {@code <meter>{outcome=accepted|invalid|unsupported_version|refused|failed}}. The log says a record
 * set aside once a minute for each outcome, with how many more were set aside since: a producer writing garbage would
 * otherwise write a warning for every record (a thousand in the demo's poison fault), and each is on the dead-letter
 * topic with its reason anyway.
 */
public final class EventInbox<T extends RayscaleEvent> {

    private static final Logger LOG = Logger.getLogger(EventInbox.class);
    private static final String ACCEPTED = "accepted";
    private static final String INVALID = "invalid";
    private static final String UNSUPPORTED_VERSION = "unsupported_version";
    private static final String FAILED = "failed";
    private static final String REFUSED = "refused";
    static final int PIPELINED_DEAD_LETTERS = 64;
    private static final Duration SET_ASIDE_SAID_EVERY = Duration.ofMinutes(1);

    private final EventDeserializer<T> deserializer;
    private final Consumer<T> admission;
    private final DeadLetters deadLetters;
    private final MeterRegistry registry;
    private final String meter;
    private final int pipelined;
    /** Records handed to their handler and not yet acknowledged or set aside: bounded by {@link #pipelined}, waited for when stopping. */
    private final Unsettled handling = new Unsettled();
    /** Records whose dead letter is on its way: bounded by {@link #PIPELINED_DEAD_LETTERS}, waited for when stopping. */
    private final Unsettled settingAside = new Unsettled();
    private final Pacing setAsideSaid = new Pacing(SET_ASIDE_SAID_EVERY, System::nanoTime);

    /** An inbox whose {@link #deliver} completes only when the handler's work is done (and the record acknowledged). */
    public EventInbox(EventDeserializer<T> deserializer, DeadLetters deadLetters, MeterRegistry registry, String meter) {
        this(deserializer, deadLetters, registry, meter, 0);
    }

    /**
     * @param pipelined how many handled events may still be finishing (their output on its way to the broker) while
     *     {@link #deliver} already lets the next record in; each record is acknowledged only when its own handling
     *     completes, and offsets are committed only past acknowledged records, so nothing is skipped. The handler
     *     runs synchronously in delivery order, so what it sends leaves in that order.
     */
    public EventInbox(EventDeserializer<T> deserializer, DeadLetters deadLetters, MeterRegistry registry, String meter, int pipelined) {
        this(deserializer, event -> { }, deadLetters, registry, meter, pipelined);
    }

    /**
     * As {@link #EventInbox(EventDeserializer, DeadLetters, MeterRegistry, String, int)}, with {@code admission} run on each
     * event read: a {@link RefusedEventException} it throws sets the record aside, counted {@code refused}.
     */
    public EventInbox(EventDeserializer<T> deserializer, Consumer<T> admission, DeadLetters deadLetters, MeterRegistry registry,
            String meter, int pipelined) {
        this.admission = admission;
        this.pipelined = pipelined;
        this.deserializer = deserializer;
        this.deadLetters = deadLetters;
        this.registry = registry;
        this.meter = meter;
        // Registered up front so that dashboards and alerts see zeros rather than missing series.
        List.of(ACCEPTED, INVALID, UNSUPPORTED_VERSION, REFUSED, FAILED).forEach(outcome -> registry.counter(meter, "outcome", outcome));
    }

    /** Decodes {@code record} and hands the event to {@code handler}; acks when it completes, sets it aside on any failure. */
    public CompletionStage<Void> deliver(Message<byte[]> record, Function<T, CompletionStage<?>> handler) {
        return deliver(read(record), handler);
    }

    /**
     * Decodes {@code record}, counting and setting aside nothing yet: a batch can be read whole (to see which events a
     * later one supersedes) before its records are {@linkplain #deliver(Read, Function) delivered} one by one.
     */
    public Read<T> read(Message<byte[]> record) {
        IncomingKafkaRecordMetadata<?, ?> kafka = record.getMetadata(IncomingKafkaRecordMetadata.class).orElse(null);
        try {
            return new Read<>(record, kafka, read(kafka, record.getPayload()), null);
        } catch (RuntimeException | StackOverflowError | OutOfMemoryError unreadable) {
            // A reader that breaks on a record (too deep, too big) must still let the next one through.
            return new Read<>(record, kafka, null, unreadable);
        }
    }

    /**
     * Reads a batch whole: each record's read, and per cluster its newest event by {@code order} (the first of equals),
     * so that what a later event of the same cluster supersedes can be answered without work. Every record is read, so
     * that what cannot be is set aside with its reason even when a newer event supersedes it; the records are read in
     * parallel (on the common pool; the deserializer and the admission check keep no state), as reading is most of a
     * reader's work and a service with more than a core can spread it.
     */
    public Batch<T> read(List<? extends Message<byte[]>> records, ToLongFunction<T> order) {
        List<Read<T>> reads = records.parallelStream().map(this::read).toList();
        Map<String, T> newest = new HashMap<>();
        reads.forEach(read -> read.event().ifPresent(event -> newest.merge(event.cluster().id(), event,
                (kept, next) -> order.applyAsLong(next) > order.applyAsLong(kept) ? next : kept)));
        return new Batch<>(reads, newest);
    }

    /** A batch as {@linkplain #read(List, ToLongFunction) read}. */
    public record Batch<T>(List<Read<T>> reads, Map<String, T> newestByCluster) {

        /** The newest event of {@code event}'s cluster in the batch ({@code event} itself when none is newer). */
        public T newest(RayscaleEvent event) {
            return newestByCluster.get(event.cluster().id());
        }
    }

    /** Hands a read event to {@code handler}, acking when it completes; sets the record aside if it was unreadable or failed. */
    public CompletionStage<Void> deliver(Read<T> read, Function<T, CompletionStage<?>> handler) {
        Message<byte[]> record = read.record;
        IncomingKafkaRecordMetadata<?, ?> kafka = read.kafka;
        if (read.event == null) {
            return setAside(record, kafka, read.unreadable, read.unreadable instanceof UnsupportedSchemaVersionException ? UNSUPPORTED_VERSION
                    : read.unreadable instanceof RefusedEventException ? REFUSED : INVALID);
        }
        T event = read.event;
        CompletionStage<?> handled;
        try {
            handled = handler.apply(event);
        } catch (RuntimeException | StackOverflowError | OutOfMemoryError failure) {
            // An Error left uncaught would leave the record unacked and the partition stalled behind it.
            handled = CompletableFuture.failedFuture(failure);
        }
        CompletionStage<Void> settled = handling.track(handled.handle((ignored, failure) -> failure).thenCompose(failure -> {
            if (failure == null) {
                count(ACCEPTED);
                return record.ack();
            }
            LOG.errorf(failure, "handling %s %s failed", event.getClass().getSimpleName(), event.id());
            return setAside(record, kafka, failure, FAILED);
        }));
        return handling.size() <= pipelined ? CompletableFuture.completedFuture(null) : settled;
    }

    /**
     * At shutdown, once no more records come in: waits, at most {@code patience}, until each record handed in is
     * acknowledged (its output on the broker) or set aside. One that is not by then is read again by the partition's next
     * reader. Says whether they all were.
     */
    public boolean settle(Duration patience) {
        long deadline = Unsettled.deadline(patience);
        boolean settled = handling.awaitUntil(deadline) & settingAside.awaitUntil(deadline);
        if (!settled) {
            LOG.warnf("stopping with %d record(s) still waiting for their output after %s; the partition's next reader reads them again",
                    handling.size() + settingAside.size(), patience);
        }
        return settled;
    }

    /** A record as {@linkplain #read(Message) read}: its event, or (event empty) what made it unreadable. */
    public static final class Read<T> {

        private final Message<byte[]> record;
        private final IncomingKafkaRecordMetadata<?, ?> kafka;
        private final T event;
        private final Throwable unreadable;

        private Read(Message<byte[]> record, IncomingKafkaRecordMetadata<?, ?> kafka, T event, Throwable unreadable) {
            this.record = record;
            this.kafka = kafka;
            this.event = event;
            this.unreadable = unreadable;
        }

        public Optional<T> event() {
            return Optional.ofNullable(event);
        }
    }

    /** The event, with its record's key checked against its cluster: a key is how one cluster's events stay in order. */
    private T read(IncomingKafkaRecordMetadata<?, ?> kafka, byte[] value) {
        Headers headers = kafka == null ? null : kafka.getHeaders();
        T event = deserializer.deserialize(kafka == null ? null : kafka.getTopic(), headers, value);
        Object key = kafka == null ? null : kafka.getKey();
        if (kafka != null && !Objects.equals(key, event.cluster().id())) {
            throw new InvalidEventException(event.getClass().getSimpleName(), "record key",
                    "expected the cluster id " + event.cluster().id() + ", found " + key);
        }
        admission.accept(event);
        return event;
    }

    private CompletionStage<Void> setAside(Message<byte[]> record, IncomingKafkaRecordMetadata<?, ?> kafka, Throwable reason, String outcome) {
        count(outcome);
        setAsideSaid.due(outcome).ifPresent(heldBack -> LOG.warnf("record %s set aside on the dead-letter topic: %s%s", DeadLetters.position(kafka),
                reason.getMessage(), heldBack == 0 ? ""
                        : " (and " + heldBack + " more " + outcome + " records since the last such line, each on the dead-letter topic with its reason)"));
        CompletionStage<Void> settled = settingAside.track(deadLetters.send(kafka, record.getPayload(), reason).handle((sent, failure) -> failure).thenCompose(failure -> {
            if (failure == null) {
                return record.ack();
            }
            LOG.errorf(failure, "record %s could not be set aside; it will be read again", DeadLetters.position(kafka));
            return record.nack(failure);
        }));
        return settingAside.size() <= PIPELINED_DEAD_LETTERS ? CompletableFuture.completedFuture(null) : settled;
    }

    private void count(String outcome) {
        registry.counter(meter, "outcome", outcome).increment();
    }
}
