package dev.rayscale.service;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.function.ToDoubleFunction;

/** Gauges registered the one way every Rayscale service registers them. */
public final class Gauges {

    private Gauges() {
    }

    /**
     * A gauge of {@code state}, held strongly (with Micrometer's default weak reference a gauge read NaN after a garbage
     * collection), in place of any gauge of the same name and tags: the global registry outlives an application restarted
     * in the same JVM (as in tests), and a gauge left from the earlier start would go on reading that start's state while
     * the new one was ignored.
     *
     * @param description what it counts, or null
     * @param tags        tag keys and values, alternating
     */
    public static <T> void register(MeterRegistry registry, String name, T state, ToDoubleFunction<T> value, String description,
            String... tags) {
        register(registry, name, null, state, value, description, tags);
    }

    /** As above, in {@code baseUnit} (such as {@code seconds}; null for none). */
    public static <T> void register(MeterRegistry registry, String name, String baseUnit, T state, ToDoubleFunction<T> value,
            String description, String... tags) {
        registry.find(name).tags(tags).gauges().forEach(registry::remove);
        Gauge.builder(name, state, value).tags(tags).baseUnit(baseUnit).description(description).strongReference(true).register(registry);
    }
}
