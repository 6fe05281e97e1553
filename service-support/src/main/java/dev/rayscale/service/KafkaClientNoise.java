package dev.rayscale.service;

import io.quarkus.logging.LoggingFilter;
import java.time.Duration;
import java.util.List;
import java.util.function.LongSupplier;
import java.util.logging.Filter;
import java.util.logging.LogRecord;
import java.util.regex.Pattern;

/**
 * Keeps the Kafka clients' retried warnings from flooding the console. Each client warns about three times a second
 * that a metadata answer "reported a recoverable issue" (a topic unknown or its leader moving) while it lasts: dozens
 * of lines at every broker restart, and for ever while a topic is missing; those are left out, since a missing topic is
 * said once instead and makes the service unready ({@link KafkaTopicsReadiness}). And while the broker cannot be
 * reached each client warns, at every try, that a connection "could not be established" and that the bootstrap broker
 * "disconnected": a planner with no broker wrote 31 such lines in its first 20 s, hundreds in a 90 s outage. Those are
 * said once a minute for each client (and node), the first time at once; meanwhile {@code /q/health/ready} says the
 * broker cannot be reached. And SmallRye's poll loop may try once more to poll a consumer it has just closed, when the
 * service stops (or, mid-run, after a failure it has said already), and warns that the poll failed, with a stack trace:
 * a closed consumer is not a failure worth a line, so that one is left out. Set on the console with
 * {@code quarkus.log.console.filter=} {@value #NAME}.
 */
@LoggingFilter(name = KafkaClientNoise.NAME)
public final class KafkaClientNoise implements Filter {

    public static final String NAME = "kafka-client-noise";
    static final Duration UNREACHABLE_EVERY = Duration.ofMinutes(1);
    private static final String LOGGER = "org.apache.kafka.clients.NetworkClient";
    private static final String RECOVERABLE = "reported a recoverable issue";
    private static final String SMALLRYE_KAFKA = "io.smallrye.reactive.messaging.kafka";
    private static final String POLL_FAILED = "SRMSG18285";
    private static final String CLOSED = "This consumer has already been closed";
    /** What a client says, each time it tries, while the broker cannot be reached. */
    private static final List<Pattern> UNREACHABLE = List.of(Pattern.compile("could not be established"),
            Pattern.compile("Bootstrap broker .* disconnected"));

    /** Each warning of an unreachable broker, by its text (which names the client). */
    private final Pacing unreachableSaid;

    public KafkaClientNoise() {
        this(System::nanoTime);
    }

    KafkaClientNoise(LongSupplier nanoTime) {
        this.unreachableSaid = new Pacing(UNREACHABLE_EVERY, nanoTime);
    }

    @Override
    public boolean isLoggable(LogRecord record) {
        String message = record.getMessage();
        if (message == null) {
            return true;
        }
        if (SMALLRYE_KAFKA.equals(record.getLoggerName())) {
            return !(message.startsWith(POLL_FAILED) && record.getThrown() instanceof IllegalStateException closed
                    && closed.getMessage() != null && closed.getMessage().startsWith(CLOSED));
        }
        if (!LOGGER.equals(record.getLoggerName())) {
            return true;
        }
        if (message.contains(RECOVERABLE)) {
            return false;
        }
        return UNREACHABLE.stream().noneMatch(unreachable -> unreachable.matcher(message).find()) || unreachableSaid.due(message).isPresent();
    }
}
