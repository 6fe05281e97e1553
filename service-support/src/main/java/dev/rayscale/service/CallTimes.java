package dev.rayscale.service;

import io.grpc.ClientInterceptor;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.grpc.MetricCollectingClientInterceptor;
import java.time.Duration;
import java.util.stream.Stream;

/**
 * How the services time their calls to what they depend on (the Kubernetes API, the GCSs): in the same buckets, so that a
 * dashboard or a bench can say how many took more than a second, or more than five, since the service started.
 */
public final class CallTimes {

    /** A healthy API server or GCS answers in milliseconds; the services' deadlines and request timeouts are seconds. */
    public static final Duration[] BUCKETS = Stream.of(5, 10, 25, 50, 100, 250, 500, 1000, 2500, 5000, 10000)
            .map(Duration::ofMillis).toArray(Duration[]::new);

    private CallTimes() {
    }

    /** Times every gRPC call made through it, by method and status code: Micrometer's {@code grpc.client.processing.duration}. */
    public static ClientInterceptor grpc(MeterRegistry registry) {
        return new MetricCollectingClientInterceptor(registry, counter -> counter, timer -> timer.serviceLevelObjectives(BUCKETS));
    }
}
