package dev.rayscale.collector;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class PollerProgressTest {

    private final AtomicLong nanos = new AtomicLong(1_000);
    private final PollerProgress progress = new PollerProgress(Duration.ofMinutes(2), nanos::get);

    @Test
    void roundsThatEndAndReadsThatEndAreProgress() {
        for (int minute = 0; minute < 10; minute++) {
            nanos.addAndGet(Duration.ofMinutes(1).toNanos());
            progress.roundEnded();
            progress.readEnded();
            assertThat(progress.wedged(5)).isNull();
        }
    }

    @Test
    void roundsThatStopEndingAreWedged() {
        nanos.addAndGet(Duration.ofSeconds(121).toNanos());
        progress.readEnded();

        assertThat(progress.wedged(0)).isEqualTo("no polling round has ended for 121 s");
    }

    @Test
    void readsThatStopEndingAreWedgedOnlyWhileClustersWaitForThem() {
        for (int minute = 0; minute < 3; minute++) {
            nanos.addAndGet(Duration.ofMinutes(1).toNanos());
            progress.roundEnded();
        }

        assertThat(progress.wedged(0)).as("nothing to read: idle, not wedged").isNull();
        assertThat(progress.wedged(3)).isEqualTo("no GCS read has ended for 180 s while 3 cluster(s) wait for a call slot");
    }
}
