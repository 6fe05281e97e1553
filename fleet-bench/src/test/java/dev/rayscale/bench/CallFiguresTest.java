package dev.rayscale.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The bench's reading of an actuator's call times, from samples as its Prometheus endpoint writes them. */
class CallFiguresTest {

    @Test
    void sumsEachKindOverItsOutcomesAndCountsTheSlowOnes() {
        String get = "rayscale_actuator_kubernetes_requests_seconds_%s{outcome=\"%s\",request=\"raycluster.get\"%s}";
        String drain = "grpc_client_processing_duration_seconds_%s{method=\"DrainNode\",methodType=\"UNARY\","
                + "service=\"ray.rpc.autoscaler.AutoscalerStateService\",statusCode=\"%s\"%s}";
        Map<String, Double> samples = new HashMap<>();
        histogram(samples, get, "answered", 8, 4.0, 6, 7);
        histogram(samples, get, "no-answer", 2, 11.0, 0, 0);
        samples.put(get.formatted("max", "no-answer", ""), 5.5);
        histogram(samples, drain, "OK", 3, 0.03, 3, 3);
        samples.put("rayscale_actuator_outcomes_total{outcome=\"APPLIED\"}", 40.0);

        CallFigures figures = CallFigures.of(samples);

        assertThat(figures.kinds()).containsExactly(
                new CallFigures.Kind("GCS DrainNode", 3, 10.0, 0, 0),
                new CallFigures.Kind("Kubernetes raycluster.get", 10, 1500.0, 4, 3));
    }

    @Test
    void aServiceThatCalledNothingHasNoFigures() {
        assertThat(CallFigures.of(Map.of("rayscale_actuator_outcomes_total{outcome=\"APPLIED\"}", 40.0)).kinds()).isEmpty();
    }

    /** One series of a histogram as Prometheus writes it: its count, sum (seconds) and the 1 s and 5 s buckets. */
    private static void histogram(Map<String, Double> samples, String series, String label, long count, double seconds, long withinOne,
            long withinFive) {
        samples.put(series.formatted("count", label, ""), (double) count);
        samples.put(series.formatted("sum", label, ""), seconds);
        samples.put(series.formatted("bucket", label, ",le=\"1.0\""), (double) withinOne);
        samples.put(series.formatted("bucket", label, ",le=\"5.0\""), (double) withinFive);
    }
}
