package dev.rayscale.actuator.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Rayscale against another writer of the same fields: a bounded number of writes, then a hold, never a fight. */
class ContestTest {

    private static final Instant T0 = Instant.parse("2026-12-04T12:00:00Z");
    private static final Duration HOLD = Duration.ofMinutes(10);
    private static final OtherWrite GITOPS = new OtherWrite("argocd-controller", List.of("cpu replicas 5 -> 2"));

    @Test
    void aWriterThatKeepsChangingTheFieldsGetsRayscaleToHoldAfterItsBoundedWrites() {
        Contest contest = Contest.NONE;
        int rayscaleWrites = 0;
        for (int round = 0; round < 10; round++) {
            Instant now = T0.plusSeconds(30L * round);
            Contest.Seen seen = contest.read(GITOPS, "d-" + round, now, 3, HOLD);
            assertThat(seen.newChange()).as("each change over another Rayscale write is a change of its own").isTrue();
            contest = seen.contest();
            if (contest.held(now)) {
                assertThat(seen.holdBegan()).isTrue();
                assertThat(contest.heldUntil()).isEqualTo(now.plus(HOLD));
                break;
            }
            contest = contest.wrote();
            rayscaleWrites++;
        }
        assertThat(rayscaleWrites).as("writes after the first change, then the hold").isEqualTo(3);
    }

    @Test
    void theSameChangeSeenOnManyReadsIsCountedOnce() {
        Contest.Seen first = Contest.NONE.read(GITOPS, "d-1", T0, 3, HOLD);
        Contest.Seen again = first.contest().read(GITOPS, "d-1", T0.plusSeconds(5), 3, HOLD);

        assertThat(first.newChange()).isTrue();
        assertThat(again.newChange()).isFalse();
        assertThat(again.contest()).isEqualTo(first.contest());
    }

    @Test
    void theHoldEndsAndRayscaleTriesAgainWithoutCountingTheSameChangeTwice() {
        Contest held = new Contest("d-3: " + GITOPS.describe(), T0, 3, T0.plus(HOLD));
        assertThat(held.held(T0.plus(HOLD).minusSeconds(1))).isTrue();

        Contest.Seen after = held.read(GITOPS, "d-3", T0.plus(HOLD), 3, HOLD);

        assertThat(after.contest().held(T0.plus(HOLD))).isFalse();
        assertThat(after.newChange()).as("the change it held for, still in place, is not a new one").isFalse();
        assertThat(after.contest().writes()).isZero();
        assertThat(after.contest().wrote().writes()).as("no contest open: a write is not counted").isZero();
    }

    @Test
    void aContestEndsAfterAHoldsLengthWithoutAnotherChange() {
        Contest open = Contest.NONE.read(GITOPS, "d-1", T0, 3, HOLD).contest().wrote().wrote();
        assertThat(open.writes()).isEqualTo(2);

        Contest later = open.read(null, "d-3", T0.plus(HOLD), 3, HOLD).contest();

        assertThat(later.changedAt()).isNull();
        assertThat(later.writes()).isZero();
    }
}
