package dev.rayscale.service;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import org.apache.kafka.common.KafkaException;
import org.junit.jupiter.api.Test;

class KafkaClientNoiseTest {

    private static final String NETWORK_CLIENT = "org.apache.kafka.clients.NetworkClient";
    private static final String SMALLRYE_KAFKA = "io.smallrye.reactive.messaging.kafka";
    private static final String PRODUCER_UNREACHABLE = "[Producer clientId=kafka-producer-decisions] Connection to node {} ({}) could not be "
            + "established. Node may not be available.";
    private static final String CONSUMER_UNREACHABLE = "[Consumer clientId=kafka-consumer-snapshots-1, groupId=rayscale-scaling-planner] "
            + "Connection to node {} ({}) could not be established. Node may not be available.";

    private final AtomicLong now = new AtomicLong();
    private final KafkaClientNoise filter = new KafkaClientNoise(now::get);

    private static LogRecord warning(String logger, String message) {
        LogRecord record = new LogRecord(Level.WARNING, message);
        record.setLoggerName(logger);
        return record;
    }

    @Test
    void leavesOutTheMetadataAnswersThatTheClientRetries() {
        assertThat(filter.isLoggable(warning(NETWORK_CLIENT, "[Consumer clientId=kafka-consumer-snapshots] The "
                + "metadata response from the cluster reported a recoverable issue with correlation id {} : {}"))).isFalse();
        assertThat(filter.isLoggable(warning("dev.rayscale.service.KafkaTopicsReadiness", "reported a recoverable issue"))).isTrue();
    }

    @Test
    void saysThatTheBrokerCannotBeReachedOnceAMinuteForEachClient() {
        assertThat(filter.isLoggable(warning(NETWORK_CLIENT, PRODUCER_UNREACHABLE))).as("the first time").isTrue();
        assertThat(filter.isLoggable(warning(NETWORK_CLIENT, CONSUMER_UNREACHABLE))).as("another client's first time").isTrue();

        now.addAndGet(KafkaClientNoise.UNREACHABLE_EVERY.toNanos() - 1);
        assertThat(filter.isLoggable(warning(NETWORK_CLIENT, PRODUCER_UNREACHABLE))).as("within the minute").isFalse();
        assertThat(filter.isLoggable(warning(NETWORK_CLIENT, CONSUMER_UNREACHABLE))).isFalse();

        now.incrementAndGet();
        assertThat(filter.isLoggable(warning(NETWORK_CLIENT, PRODUCER_UNREACHABLE))).as("a minute on").isTrue();
        assertThat(filter.isLoggable(warning(NETWORK_CLIENT, PRODUCER_UNREACHABLE))).isFalse();
        assertThat(filter.isLoggable(warning("dev.rayscale.Other", PRODUCER_UNREACHABLE))).as("another logger's").isTrue();
    }

    @Test
    void saysThatTheBootstrapBrokerDisconnectedOnceAMinuteForEachClient() {
        String disconnected = "[Producer clientId=kafka-producer-decisions] Bootstrap broker 127.0.0.1:1 (id: -1 rack: null isFenced: false) "
                + "disconnected";
        assertThat(filter.isLoggable(warning(NETWORK_CLIENT, disconnected))).isTrue();
        assertThat(filter.isLoggable(warning(NETWORK_CLIENT, disconnected))).isFalse();

        now.addAndGet(KafkaClientNoise.UNREACHABLE_EVERY.toNanos());
        assertThat(filter.isLoggable(warning(NETWORK_CLIENT, disconnected))).isTrue();
    }

    @Test
    void leavesOutAPollOfAConsumerSmallRyeHasClosed() {
        String pollFailed = "SRMSG18285: Failed to poll consumer client `%s` for channel `%s`, it will be re-attempted";
        LogRecord ofClosed = warning(SMALLRYE_KAFKA, pollFailed);
        ofClosed.setThrown(new IllegalStateException("This consumer has already been closed."));
        LogRecord ofBroker = warning(SMALLRYE_KAFKA, pollFailed);
        ofBroker.setThrown(new KafkaException("the broker is gone"));

        assertThat(filter.isLoggable(ofClosed)).isFalse();
        assertThat(filter.isLoggable(ofBroker)).as("a poll that failed for another reason").isTrue();
        assertThat(filter.isLoggable(warning(SMALLRYE_KAFKA, "SRMSG18228: A failure has been reported for Kafka topics"))).isTrue();
    }

    @Test
    void letsEveryOtherWarningThrough() {
        assertThat(filter.isLoggable(warning(NETWORK_CLIENT, "[Producer clientId=kafka-producer-decisions] Error connecting to node {}")))
                .isTrue();
        assertThat(filter.isLoggable(warning(NETWORK_CLIENT, null))).isTrue();
    }
}
