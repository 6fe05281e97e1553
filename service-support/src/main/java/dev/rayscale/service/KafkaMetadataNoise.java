package dev.rayscale.service;

import io.quarkus.logging.LoggingFilter;
import java.util.logging.Filter;
import java.util.logging.LogRecord;

/**
 * Leaves out the Kafka clients' warning that a metadata answer "reported a recoverable issue" (a topic unknown or its
 * leader moving). The client retries, and says so about three times a second for each client while it lasts: dozens of
 * WARN lines at every broker restart, and for ever while a topic is missing. A missing topic is said once instead, and
 * makes the service unready ({@link KafkaTopicsReadiness}); a broker that cannot be reached is still warned about.
 * Set on the console with {@code quarkus.log.console.filter=} {@value #NAME}.
 */
@LoggingFilter(name = KafkaMetadataNoise.NAME)
public final class KafkaMetadataNoise implements Filter {

    public static final String NAME = "kafka-metadata-noise";
    private static final String LOGGER = "org.apache.kafka.clients.NetworkClient";
    private static final String RECOVERABLE = "reported a recoverable issue";

    @Override
    public boolean isLoggable(LogRecord record) {
        String message = record.getMessage();
        return !(LOGGER.equals(record.getLoggerName()) && message != null && message.contains(RECOVERABLE));
    }
}
