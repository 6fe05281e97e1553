package dev.rayscale.service;

import dev.rayscale.events.RayscaleEvent;
import dev.rayscale.events.codec.EventDeserializer;
import dev.rayscale.events.codec.InvalidEventException;
import dev.rayscale.events.codec.UnsupportedSchemaVersionException;
import io.micrometer.core.instrument.MeterRegistry;
import io.smallrye.reactive.messaging.kafka.api.IncomingKafkaRecordMetadata;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;
import org.apache.kafka.common.header.Headers;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.jboss.logging.Logger;

/**
 * Reads one event type from a Kafka channel consumed as raw bytes. A record that cannot be read, or
 * whose handling fails, is nacked with the reason; with the channel's {@code dead-letter-queue}
 * failure strategy that sends the original bytes to the service's dead-letter topic, the reason in
 * its {@code dead-letter-reason} header, and the consumer goes on with the next record.
 *
 * <p>Counts every record in {@code <meter>{outcome=accepted|invalid|unsupported_version|failed}}.
 */
public final class EventInbox<T extends RayscaleEvent> {

    private static final Logger LOG = Logger.getLogger(EventInbox.class);
    private static final String ACCEPTED = "accepted";
    private static final String INVALID = "invalid";
    private static final String UNSUPPORTED_VERSION = "unsupported_version";
    private static final String FAILED = "failed";

    private final EventDeserializer<T> deserializer;
    private final MeterRegistry registry;
    private final String meter;

    public EventInbox(EventDeserializer<T> deserializer, MeterRegistry registry, String meter) {
        this.deserializer = deserializer;
        this.registry = registry;
        this.meter = meter;
        // Registered up front so that dashboards and alerts see zeros rather than missing series.
        List.of(ACCEPTED, INVALID, UNSUPPORTED_VERSION, FAILED).forEach(outcome -> registry.counter(meter, "outcome", outcome));
    }

    /** Decodes {@code record} and hands the event to {@code handler}; acks when it completes, nacks on any failure. */
    public CompletionStage<Void> deliver(Message<byte[]> record, Function<T, CompletionStage<?>> handler) {
        IncomingKafkaRecordMetadata<?, ?> kafka = record.getMetadata(IncomingKafkaRecordMetadata.class).orElse(null);
        Headers headers = kafka == null ? null : kafka.getHeaders();
        String topic = kafka == null ? null : kafka.getTopic();
        T event;
        try {
            event = deserializer.deserialize(topic, headers, record.getPayload());
        } catch (InvalidEventException invalid) {
            count(invalid instanceof UnsupportedSchemaVersionException ? UNSUPPORTED_VERSION : INVALID);
            LOG.warnf("record %s sent to the dead-letter topic: %s", position(kafka), invalid.getMessage());
            return record.nack(invalid);
        } catch (RuntimeException | StackOverflowError | OutOfMemoryError unreadable) {
            // A reader that breaks on a record (too deep, too big) must still let the next one through.
            count(INVALID);
            LOG.warnf("record %s sent to the dead-letter topic: it could not be read (%s)", position(kafka), unreadable);
            return record.nack(unreadable);
        }
        CompletionStage<?> handled;
        try {
            handled = handler.apply(event);
        } catch (RuntimeException | StackOverflowError | OutOfMemoryError failure) {
            // An Error left uncaught would leave the record unacked and the partition stalled behind it.
            handled = CompletableFuture.failedFuture(failure);
        }
        return handled.handle((ignored, failure) -> failure).thenCompose(failure -> {
            if (failure == null) {
                count(ACCEPTED);
                return record.ack();
            }
            count(FAILED);
            LOG.errorf(failure, "handling %s %s failed; record %s sent to the dead-letter topic",
                    event.getClass().getSimpleName(), event.id(), position(kafka));
            return record.nack(failure);
        });
    }

    private void count(String outcome) {
        registry.counter(meter, "outcome", outcome).increment();
    }

    private static String position(IncomingKafkaRecordMetadata<?, ?> kafka) {
        return kafka == null ? "(not from Kafka)" : kafka.getTopic() + "-" + kafka.getPartition() + "@" + kafka.getOffset();
    }
}
