package dev.rayscale.collector;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class FairReadsTest {

    private final List<String> shareReached = new ArrayList<>();
    private final FairReads<String> reads = new FairReads<>(2, shareReached::add);

    @Test
    void namespacesAreServedInTurnWhateverOrderTheirReadsCameIn() {
        for (int i = 0; i < 5; i++) {
            reads.add("crowded", "crowded-" + i);
        }
        reads.add("quiet", "quiet-0");
        reads.add("other", "other-0");

        assertThat(List.of(reads.poll(1), reads.poll(1), reads.poll(1))).containsExactly("crowded-0", "quiet-0", "other-0");
    }

    /** A namespace whose GCSs do not answer holds its share of the call slots, and no more while others may need them. */
    @Test
    void aNamespaceHoldsItsShareOfTheSlotsAndMoreOnlyWhileAShareStaysFree() {
        for (int i = 0; i < 6; i++) {
            reads.add("unreachable", "unreachable-" + i);
        }

        assertThat(reads.poll(4)).isEqualTo("unreachable-0");
        assertThat(reads.poll(3)).isEqualTo("unreachable-1");
        assertThat(reads.poll(2)).as("its share is under way, and only a share's worth of slots is free").isNull();
        assertThat(shareReached).containsExactly("unreachable");

        reads.add("ordinary", "ordinary-0");
        assertThat(reads.poll(2)).as("another namespace is not held up").isEqualTo("ordinary-0");

        assertThat(reads.poll(40)).as("beyond its share while plenty stays free").isEqualTo("unreachable-2");
        reads.done("unreachable");
        reads.done("unreachable");
        assertThat(reads.poll(1)).isEqualTo("unreachable-3");
        assertThat(reads.size()).isEqualTo(2);
    }
}
