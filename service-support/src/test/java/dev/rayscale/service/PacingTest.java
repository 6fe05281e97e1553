package dev.rayscale.service;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class PacingTest {

    private static final Duration EVERY = Duration.ofMinutes(1);

    private final AtomicLong now = new AtomicLong(1_000);
    private final Pacing pacing = new Pacing(EVERY, now::get);

    @Test
    void letsAKeyThroughAtOnceThenOnceAnIntervalSayingHowManyItHeldBack() {
        assertThat(pacing.due("invalid")).as("the first time").hasValue(0);
        assertThat(pacing.due("invalid")).isEmpty();
        now.addAndGet(EVERY.toNanos() - 1);
        assertThat(pacing.due("invalid")).as("within the interval").isEmpty();

        now.incrementAndGet();
        assertThat(pacing.due("invalid")).as("an interval on, the two held back").hasValue(2);
        assertThat(pacing.due("invalid")).isEmpty();
        now.addAndGet(EVERY.toNanos());
        assertThat(pacing.due("invalid")).hasValue(1);
    }

    @Test
    void pacesEachKeyOnItsOwn() {
        assertThat(pacing.due("invalid")).hasValue(0);
        assertThat(pacing.due("failed")).as("another key's first time").hasValue(0);
        assertThat(pacing.due("invalid")).isEmpty();
        assertThat(pacing.due("failed")).isEmpty();
    }

    @Test
    void aKeyQuietForLongerThanTheIntervalHasHeldNothingBack() {
        pacing.due("unsupported_version");
        now.addAndGet(10 * EVERY.toNanos());

        assertThat(pacing.due("unsupported_version")).isEqualTo(OptionalLong.of(0));
    }
}
