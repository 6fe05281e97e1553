package dev.rayscale.service;

import io.smallrye.common.annotation.Identifier;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.smallrye.reactive.messaging.kafka.IncomingKafkaRecord;
import io.smallrye.reactive.messaging.kafka.KafkaConnectorIncomingConfiguration;
import io.smallrye.reactive.messaging.kafka.KafkaConsumer;
import io.smallrye.reactive.messaging.kafka.commit.KafkaCommitHandler;
import io.smallrye.reactive.messaging.kafka.commit.ContextHolder;
import io.vertx.mutiny.core.Context;
import io.vertx.mutiny.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.Collection;
import java.util.function.BiConsumer;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.common.TopicPartition;
import org.jboss.logging.Logger;

/**
 * The commit strategy of the services' incoming channels ({@code commit-strategy=throttled-retried}): SmallRye's
 * throttled one, whose failed commits are made again ({@link OwedCommits}) a commit interval later, and at once when a
 * rebalance ends or takes a partition away.
 */
@ApplicationScoped
@Identifier(RetriedCommits.STRATEGY)
public class RetriedCommits implements KafkaCommitHandler.Factory {

    public static final String STRATEGY = "throttled-retried";
    private static final Logger LOG = Logger.getLogger(RetriedCommits.class);

    private final KafkaCommitHandler.Factory throttled;

    @Inject
    public RetriedCommits(@Identifier(KafkaCommitHandler.Strategy.THROTTLED) KafkaCommitHandler.Factory throttled) {
        this.throttled = throttled;
    }

    @Override
    public KafkaCommitHandler create(KafkaConnectorIncomingConfiguration config, Vertx vertx, KafkaConsumer<?, ?> consumer,
            BiConsumer<Throwable, Boolean> reportFailure) {
        return noting(config, vertx, consumer, reportFailure);
    }

    private <K, V> KafkaCommitHandler noting(KafkaConnectorIncomingConfiguration config, Vertx vertx, KafkaConsumer<K, V> consumer,
            BiConsumer<Throwable, Boolean> reportFailure) {
        Duration interval = Duration.ofMillis(config.config()
                .getOptionalValue(ConsumerConfig.AUTO_COMMIT_INTERVAL_MS_CONFIG, Integer.class).orElse(5000));
        OwedCommits owed = new OwedCommits(action -> consumer.runOnPollingThread((Consumer<K, V> polling) -> action.accept(polling)), interval);
        KafkaCommitHandler handler = throttled.create(config, vertx, new CommitNotingConsumer<>(consumer, owed), reportFailure);
        return new Handler(handler, owed, consumer, vertx);
    }

    /**
     * The throttled handler, with the owed commits made when a rebalance ends or revokes partitions. A {@link ContextHolder}
     * as the throttled one is, so that the channel hands it the Vert.x context that the throttled one runs on.
     */
    private static final class Handler extends ContextHolder implements KafkaCommitHandler {

        private final KafkaCommitHandler throttled;
        private final OwedCommits owed;
        private final KafkaConsumer<?, ?> consumer;

        Handler(KafkaCommitHandler throttled, OwedCommits owed, KafkaConsumer<?, ?> consumer, Vertx vertx) {
            super(vertx, 0);
            this.throttled = throttled;
            this.owed = owed;
            this.consumer = consumer;
        }

        @Override
        public void capture(Context context) {
            super.capture(context);
            if (throttled instanceof ContextHolder holder) {
                holder.capture(context);
            }
        }

        @Override
        public void capture(io.vertx.core.Context context) {
            super.capture(context);
            if (throttled instanceof ContextHolder holder) {
                holder.capture(context);
            }
        }

        @Override
        public <K, V> Multi<IncomingKafkaRecord<K, V>> decorateStream(Multi<IncomingKafkaRecord<K, V>> consumed) {
            return throttled.decorateStream(consumed);
        }

        @Override
        public <K, V> Uni<IncomingKafkaRecord<K, V>> received(IncomingKafkaRecord<K, V> record) {
            return throttled.received(record);
        }

        @Override
        public <K, V> Uni<Void> handle(IncomingKafkaRecord<K, V> record) {
            return throttled.handle(record);
        }

        /** On the polling thread, the rebalance over: the group takes commits again. */
        @Override
        public void partitionsAssigned(Collection<TopicPartition> partitions) {
            throttled.partitionsAssigned(partitions);
            settle();
        }

        /** On the polling thread, while the partitions are still this consumer's: the last moment to commit for them. */
        @Override
        public void partitionsRevoked(Collection<TopicPartition> partitions) {
            throttled.partitionsRevoked(partitions);
            settle();
        }

        @Override
        public void terminate(boolean graceful) {
            owed.close();
            throttled.terminate(graceful);
        }

        private void settle() {
            try {
                owed.settle(consumer.unwrap());
            } catch (RuntimeException failure) {
                LOG.debugf(failure, "committing again during a rebalance failed; trying again later");
            }
        }
    }
}
