package dev.rayscale.collector.assembly;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** A cluster's GCS process, told apart from the next one by its session or by a version counter that went back (fact A1.3). */
class GcsProcessTest {

    private static final Instant NOW = Instant.parse("2026-12-04T10:00:00Z");
    private static final Duration EVERY = Duration.ofMinutes(1);

    @Test
    void aProcessIsCheckedWhenFirstSeenThenOncePerPeriod() {
        assertThat(GcsProcess.UNSEEN.checkDue("s1", 5, NOW, EVERY)).isTrue();
        GcsProcess checked = GcsProcess.UNSEEN.read("s1", 5).checked("2.54.0", NOW);

        assertThat(checked.checkDue("s1", 6, NOW.plusSeconds(59), EVERY)).isFalse();
        assertThat(checked.checkDue("s1", 6, NOW.plusSeconds(60), EVERY)).isTrue();
        assertThat(checked.read("s1", 6).rayVersion()).isEqualTo("2.54.0");
    }

    @Test
    void anotherSessionOrAVersionThatWentBackIsAnotherProcess() {
        GcsProcess checked = GcsProcess.UNSEEN.read("s1", 500).checked("2.54.0", NOW);

        assertThat(checked.checkDue("s2", 900, NOW.plusSeconds(1), EVERY)).as("a new session").isTrue();
        assertThat(checked.checkDue("s1", 3, NOW.plusSeconds(1), EVERY)).as("restarted with Redis: same session, counter from 0").isTrue();
        assertThat(checked.read("s1", 3).rayVersion()).as("what was read of the last process is dropped").isNull();
    }

    @Test
    void aFailedCheckKeepsWhatWasKnown() {
        GcsProcess checked = GcsProcess.UNSEEN.read("s1", 5).checked("2.54.0", NOW);

        assertThat(checked.checked(null, NOW.plusSeconds(60)).rayVersion()).isEqualTo("2.54.0");
    }
}
