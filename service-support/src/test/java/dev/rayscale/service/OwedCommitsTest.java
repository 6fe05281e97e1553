package dev.rayscale.service;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.smallrye.mutiny.Uni;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.RebalanceInProgressException;
import org.junit.jupiter.api.Test;

class OwedCommitsTest {

    private static final TopicPartition FIRST = new TopicPartition("rayscale.decisions", 0);
    private static final TopicPartition SECOND = new TopicPartition("rayscale.decisions", 1);

    /** A group consumer whose first commits fail, as while the group rebalances after its coordinator restarted. */
    private static final class Rebalancing extends MockConsumer<String, byte[]> {
        final AtomicInteger commits = new AtomicInteger();
        final AtomicInteger failing;

        Rebalancing(int failing, TopicPartition... assigned) {
            super("earliest");
            this.failing = new AtomicInteger(failing);
            assign(List.of(assigned));
        }

        @Override
        public synchronized void commitSync(Map<TopicPartition, OffsetAndMetadata> offsets) {
            commits.incrementAndGet();
            if (failing.getAndDecrement() > 0) {
                throw new RebalanceInProgressException("the group is rebalancing");
            }
            super.commitSync(offsets);
        }

        long committed(TopicPartition partition) {
            OffsetAndMetadata offset = committed(Set.of(partition)).get(partition);
            return offset == null ? -1 : offset.offset();
        }
    }

    private static OwedCommits owedOn(Rebalancing consumer, Duration retryAfter) {
        return new OwedCommits(action -> Uni.createFrom().voidItem().invoke(() -> action.accept(consumer)), retryAfter);
    }

    /** Owed commits of {@code consumer} after these failed, made again only when a test settles them. */
    private static OwedCommits owing(Rebalancing consumer, Map<TopicPartition, OffsetAndMetadata> failed) {
        OwedCommits owed = owedOn(consumer, Duration.ofHours(1));
        owed.failed(failed);
        return owed;
    }

    @Test
    void aFailedCommitIsMadeAgainUntilTheGroupTakesIt() {
        Rebalancing consumer = new Rebalancing(2, FIRST, SECOND);
        OwedCommits owed = owedOn(consumer, Duration.ofMillis(20));

        owed.failed(Map.of(FIRST, new OffsetAndMetadata(6), SECOND, new OffsetAndMetadata(3)));

        await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> {
            assertThat(consumer.committed(FIRST)).isEqualTo(6);
            assertThat(consumer.committed(SECOND)).isEqualTo(3);
        });
        assertThat(consumer.commits).as("two failed attempts, then one that the group took").hasValue(3);
    }

    @Test
    void theLaterOfTwoFailedCommitsIsTheOneMade() {
        Rebalancing consumer = new Rebalancing(0, FIRST);
        OwedCommits owed = owing(consumer, Map.of(FIRST, new OffsetAndMetadata(8)));

        owed.failed(Map.of(FIRST, new OffsetAndMetadata(6)));
        owed.settle(consumer);

        assertThat(consumer.committed(FIRST)).isEqualTo(8);
    }

    @Test
    void aPartitionThatWentToAnotherMemberIsLeftToIt() {
        Rebalancing consumer = new Rebalancing(0, SECOND);
        OwedCommits owed = owing(consumer, Map.of(FIRST, new OffsetAndMetadata(6), SECOND, new OffsetAndMetadata(3)));

        owed.settle(consumer);

        assertThat(consumer.committed(FIRST)).as("the new owner reads on from the group's offset").isEqualTo(-1);
        assertThat(consumer.committed(SECOND)).isEqualTo(3);
        consumer.assign(List.of(FIRST, SECOND));
        owed.settle(consumer);
        assertThat(consumer.commits).as("what was left is forgotten, not committed when the partition comes back").hasValue(1);
    }

    @Test
    void aNewerCommitOfTheGroupIsNotUndone() {
        Rebalancing consumer = new Rebalancing(0, FIRST);
        consumer.commitSync(Map.of(FIRST, new OffsetAndMetadata(9)));

        owing(consumer, Map.of(FIRST, new OffsetAndMetadata(6))).settle(consumer);

        assertThat(consumer.committed(FIRST)).isEqualTo(9);
        assertThat(consumer.commits).hasValue(1);
    }

    @Test
    void aCommitThatFailsWhileSettlingStaysOwed() {
        Rebalancing consumer = new Rebalancing(1, FIRST);
        OwedCommits owed = owing(consumer, Map.of(FIRST, new OffsetAndMetadata(6)));

        assertThatThrownBy(() -> owed.settle(consumer)).as("as when the rebalance that a revocation begins refuses the commit")
                .isInstanceOf(RebalanceInProgressException.class);
        owed.settle(consumer);

        assertThat(consumer.committed(FIRST)).isEqualTo(6);
    }

    @Test
    void noCommitIsMadeAgainOnceTheConsumerCloses() {
        Rebalancing consumer = new Rebalancing(0, FIRST);
        OwedCommits owed = owedOn(consumer, Duration.ofMillis(50));

        owed.failed(Map.of(FIRST, new OffsetAndMetadata(6)));
        owed.close();

        await().during(Duration.ofMillis(300)).atMost(Duration.ofSeconds(1)).untilAsserted(() -> assertThat(consumer.commits).hasValue(0));
    }
}
