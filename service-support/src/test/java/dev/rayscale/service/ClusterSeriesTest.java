package dev.rayscale.service;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** A cluster's series go with it, now or after the expiry, and nothing else does. */
class ClusterSeriesTest {

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final AtomicLong now = new AtomicLong();
    private final List<String> forgotten = new ArrayList<>();
    private final ClusterSeries series = new ClusterSeries(registry, now::get, forgotten::add, "test.results", "test.waiting");

    @Test
    void aForgottenClustersSeriesGoAndNoOtherMeter() {
        registry.counter("test.results", "cluster", "a/one", "outcome", "APPLIED");
        registry.counter("test.results", "cluster", "a/one", "outcome", "FAILED");
        registry.gauge("test.waiting", List.of(Tag.of("cluster", "a/one")), new AtomicLong(7));
        registry.counter("test.results", "cluster", "a/two", "outcome", "APPLIED");
        registry.counter("test.other", "cluster", "a/one");
        registry.counter("test.results", "outcome", "APPLIED");

        series.forget("a/one");

        assertThat(forgotten).containsExactly("a/one");
        assertThat(registry.getMeters()).extracting(Meter::getId).extracting(id -> id.getName() + " " + id.getTag("cluster"))
                .containsExactlyInAnyOrder("test.results a/two", "test.other a/one", "test.results null");
    }

    @Test
    void aClusterUnseenForTheExpiryIsForgottenAndOneSeenSinceIsKept() {
        registry.counter("test.results", "cluster", "a/quiet");
        registry.counter("test.results", "cluster", "a/busy");
        series.seen("a/quiet");
        series.seen("a/busy");
        now.addAndGet(ClusterSeries.EXPIRY.toNanos());
        series.seen("a/busy");

        series.forgetUnseenSince(now.get() - ClusterSeries.EXPIRY.toNanos() + 1);

        assertThat(forgotten).containsExactly("a/quiet");
        assertThat(registry.getMeters()).extracting(meter -> meter.getId().getTag("cluster")).containsExactly("a/busy");
        series.forgetUnseenSince(now.get() - ClusterSeries.EXPIRY.toNanos() + 1);
        assertThat(forgotten).as("once").containsExactly("a/quiet");
    }
}
