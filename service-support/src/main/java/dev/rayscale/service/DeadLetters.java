package dev.rayscale.service;

import io.smallrye.reactive.messaging.kafka.api.IncomingKafkaRecordMetadata;
import io.smallrye.reactive.messaging.kafka.api.OutgoingKafkaRecordMetadata;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.eclipse.microprofile.reactive.messaging.Emitter;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.jboss.logging.Logger;

/**
 * Sets aside a record a service could not read or handle, on its dead-letter topic: the original key,
 * headers and value, and {@code dead-letter-reason}, {@code -cause}, {@code -topic}, {@code -partition}
 * and {@code -offset} headers saying why and where from. A value too large to be written whole (the
 * record as it came plus the headers can exceed what a producer or the topic takes) is cut to its first
 * {@value #PREFIX_BYTES} bytes, and {@code dead-letter-truncated} says how long it was: whatever the
 * record, it is set aside, and the consumer goes on.
 */
public final class DeadLetters {

    /** Values up to this size are set aside whole; a stock broker takes 1 MiB records, headers included. */
    static final int WHOLE_BYTES = 512 * 1024;
    /** What is kept of a larger value. */
    static final int PREFIX_BYTES = 16 * 1024;

    private static final Logger LOG = Logger.getLogger(DeadLetters.class);

    private final Emitter<byte[]> emitter;

    public DeadLetters(Emitter<byte[]> emitter) {
        this.emitter = emitter;
    }

    /** Completes once the broker has the dead letter. */
    public CompletionStage<Void> send(IncomingKafkaRecordMetadata<?, ?> origin, byte[] value, Throwable reason) {
        byte[] original = value == null ? new byte[0] : value;
        boolean whole = original.length <= WHOLE_BYTES;
        return write(origin, original, whole, reason).exceptionallyCompose(failure -> {
            if (!whole || !(Causes.root(failure) instanceof RecordTooLargeException)) {
                return CompletableFuture.failedFuture(failure);
            }
            LOG.warnf("the dead letter of %s was too large whole; setting aside its first %d bytes", position(origin), PREFIX_BYTES);
            return write(origin, original, false, reason);
        });
    }

    private CompletionStage<Void> write(IncomingKafkaRecordMetadata<?, ?> origin, byte[] original, boolean whole, Throwable reason) {
        Headers headers = new RecordHeaders();
        if (origin != null && origin.getHeaders() != null) {
            origin.getHeaders().forEach(headers::add);
        }
        put(headers, "dead-letter-reason", reason.getMessage() == null ? reason.toString() : reason.getMessage());
        put(headers, "dead-letter-cause", reason.getClass().getName());
        if (origin != null) {
            put(headers, "dead-letter-topic", origin.getTopic());
            put(headers, "dead-letter-partition", String.valueOf(origin.getPartition()));
            put(headers, "dead-letter-offset", String.valueOf(origin.getOffset()));
        }
        byte[] kept = whole ? original : Arrays.copyOf(original, Math.min(original.length, PREFIX_BYTES));
        if (!whole) {
            put(headers, "dead-letter-truncated", String.valueOf(original.length));
        }
        OutgoingKafkaRecordMetadata<Object> metadata = OutgoingKafkaRecordMetadata.builder()
                .withKey(origin == null ? null : origin.getKey()).withHeaders(headers).build();
        return EventOutbox.send(emitter, Message.of(kept).addMetadata(metadata));
    }

    private static void put(Headers headers, String key, String value) {
        headers.remove(key);
        headers.add(key, value.getBytes(StandardCharsets.UTF_8));
    }

    static String position(IncomingKafkaRecordMetadata<?, ?> origin) {
        return origin == null ? "(not from Kafka)" : origin.getTopic() + "-" + origin.getPartition() + "@" + origin.getOffset();
    }
}
