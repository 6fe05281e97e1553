package dev.rayscale.service;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.Test;

class CausesTest {

    private final IOException refused = new IOException("connection refused");
    private final UncheckedIOException wrapped = new UncheckedIOException("reading failed", refused);
    private final CompletionException failure = new CompletionException(new IllegalStateException("the channel failed", wrapped));

    @Test
    void theRootIsTheInnermostCause() {
        assertThat(Causes.root(failure)).isSameAs(refused);
        assertThat(Causes.root(refused)).isSameAs(refused);
    }

    @Test
    void findsTheOutermostCauseOfAType() {
        assertThat(Causes.find(failure, RuntimeException.class)).containsSame(failure);
        assertThat(Causes.find(failure, UncheckedIOException.class)).containsSame(wrapped);
        assertThat(Causes.find(failure, IOException.class)).containsSame(refused);
        assertThat(Causes.find(failure, InterruptedException.class)).isEmpty();
    }

    /** A Throwable whose cause is itself ends the walk (Throwable's own default before initCause). */
    @Test
    void aFailureItsOwnCauseEndsTheWalk() {
        Throwable selfCaused = new Throwable("alone") {
            @Override
            public synchronized Throwable getCause() {
                return this;
            }
        };
        assertThat(Causes.root(selfCaused)).isSameAs(selfCaused);
        assertThat(Causes.find(selfCaused, IOException.class)).isEmpty();
    }
}
