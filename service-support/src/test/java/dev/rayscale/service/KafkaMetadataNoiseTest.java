package dev.rayscale.service;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.logging.Level;
import java.util.logging.LogRecord;
import org.junit.jupiter.api.Test;

class KafkaMetadataNoiseTest {

    private static LogRecord warning(String logger, String message) {
        LogRecord record = new LogRecord(Level.WARNING, message);
        record.setLoggerName(logger);
        return record;
    }

    @Test
    void leavesOutOnlyTheMetadataAnswersThatTheClientRetries() {
        KafkaMetadataNoise filter = new KafkaMetadataNoise();

        assertThat(filter.isLoggable(warning("org.apache.kafka.clients.NetworkClient", "[Consumer clientId=kafka-consumer-snapshots] The "
                + "metadata response from the cluster reported a recoverable issue with correlation id {} : {}"))).isFalse();
        assertThat(filter.isLoggable(warning("org.apache.kafka.clients.NetworkClient", "[Producer clientId=kafka-producer-decisions] "
                + "Connection to node {} ({}) could not be established. Node may not be available."))).isTrue();
        assertThat(filter.isLoggable(warning("dev.rayscale.service.KafkaTopicsReadiness", "reported a recoverable issue"))).isTrue();
    }
}
