package dev.rayscale.collector.assembly;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.common.hash.HashCode;
import java.time.Duration;
import java.time.Instant;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The poll schedule, a pure value, case by case: a cluster's history of reads and publications, and what must hold after it. */
class PollStateTest {

    private static final Instant T0 = Instant.parse("2026-12-01T10:00:00Z");
    private static final Duration INITIAL = Duration.ofSeconds(1);
    private static final Duration MAX = Duration.ofSeconds(30);
    private static final Duration HEARTBEAT = Duration.ofSeconds(5);
    /** Two contents. */
    private static final Fingerprint F = new Fingerprint(null, HashCode.fromLong(1));
    private static final Fingerprint G = new Fingerprint(null, HashCode.fromLong(2));

    /** A named case: what happened to a new cluster's state, and what must hold of the state after it. */
    record Case(UnaryOperator<PollState> history, Consumer<PollState> then) {
    }

    static Stream<Named<Case>> cases() {
        return Stream.of(
                when("a new cluster is read at once", state -> state, state -> assertThat(state.due(T0)).isTrue()),
                when("a read in flight is not started again", PollState::started, state -> assertThat(state.due(T0.plusSeconds(60))).isFalse()),
                when("an answered read lets the next start at the next round", state -> state.started().answered(),
                        state -> assertThat(state.due(T0)).isTrue()),
                when("failures back off exponentially: 1 s, 2 s, 4 s", state -> failed(failed(failed(state))), state -> {
                    assertThat(state.failures()).isEqualTo(3);
                    assertThat(state.nextAttempt()).isEqualTo(T0.plusSeconds(4));
                    assertThat(state.due(T0.plusSeconds(3))).isFalse();
                    assertThat(state.due(T0.plusSeconds(4))).isTrue();
                }),
                when("the backoff stops growing at its maximum", state -> Stream.iterate(state, PollStateTest::failed).skip(40).findFirst()
                        .orElseThrow(), state -> assertThat(state.nextAttempt()).isEqualTo(T0.plus(MAX))),
                when("an answer after failures ends the backoff", state -> failed(failed(state)).started().answered(), state -> {
                    assertThat(state.failures()).isZero();
                    assertThat(state.due(T0)).isTrue();
                }),
                when("the same content within the heartbeat is not news", state -> state.published(F, T0, 0),
                        state -> assertThat(state.publishes(F, T0.plus(HEARTBEAT).minusMillis(1), HEARTBEAT)).isFalse()),
                when("changed content is news at once", state -> state.published(F, T0, 0),
                        state -> assertThat(state.publishes(G, T0.plusMillis(1), HEARTBEAT)).isTrue()),
                when("unchanged content is published again once the heartbeat is due, so that idle times advance",
                        state -> state.published(F, T0, 0), state -> assertThat(state.publishes(F, T0.plus(HEARTBEAT), HEARTBEAT)).isTrue()),
                when("the sequence is the observation time in epoch milliseconds, so it also grows across restarts",
                        state -> state.published(F, T0, 0), state -> assertThat(state.lastSequence()).isEqualTo(T0.toEpochMilli())),
                when("the sequence never moves backwards when the clock does",
                        state -> state.published(F, T0, 0).published(G, T0.minusSeconds(10), 0),
                        state -> assertThat(state.lastSequence()).isEqualTo(T0.toEpochMilli() + 1)),
                when("the sequence is above the newest applied decision's, even from a collector whose clock is behind",
                        state -> state.published(F, T0, T0.toEpochMilli() + 60_000),
                        state -> assertThat(state.lastSequence()).isEqualTo(T0.toEpochMilli() + 60_001)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void schedules(Case scheduleCase) {
        scheduleCase.then().accept(scheduleCase.history().apply(PollState.NEW));
    }

    private static Named<Case> when(String name, UnaryOperator<PollState> history, Consumer<PollState> then) {
        return Named.of(name, new Case(history, then));
    }

    private static PollState failed(PollState state) {
        return state.started().failed(T0, INITIAL, MAX);
    }
}
