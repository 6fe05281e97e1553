package dev.rayscale.sim.fleet;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** The bench's reading of an actuator's call times, from samples as its Prometheus endpoint writes them. */
class CallFiguresTest {

    @Test
    void sumsEachKindOverItsOutcomesAndCountsTheSlowOnes() {
        String get = "rayscale_actuator_kubernetes_requests_seconds_%s{outcome=\"%s\",request=\"raycluster.get\"%s}";
        String drain = "grpc_client_processing_duration_seconds_%s{method=\"DrainNode\",methodType=\"UNARY\","
                + "service=\"ray.rpc.autoscaler.AutoscalerStateService\",statusCode=\"%s\"%s}";
        Map<String, Double> samples = Map.ofEntries(
                Map.entry(get.formatted("count", "answered", ""), 8.0),
                Map.entry(get.formatted("sum", "answered", ""), 4.0),
                Map.entry(get.formatted("bucket", "answered", ",le=\"1.0\""), 6.0),
                Map.entry(get.formatted("bucket", "answered", ",le=\"5.0\""), 7.0),
                Map.entry(get.formatted("count", "no-answer", ""), 2.0),
                Map.entry(get.formatted("sum", "no-answer", ""), 11.0),
                Map.entry(get.formatted("bucket", "no-answer", ",le=\"1.0\""), 0.0),
                Map.entry(get.formatted("bucket", "no-answer", ",le=\"5.0\""), 0.0),
                Map.entry(get.formatted("max", "no-answer", ""), 5.5),
                Map.entry(drain.formatted("count", "OK", ""), 3.0),
                Map.entry(drain.formatted("sum", "OK", ""), 0.03),
                Map.entry(drain.formatted("bucket", "OK", ",le=\"1.0\""), 3.0),
                Map.entry(drain.formatted("bucket", "OK", ",le=\"5.0\""), 3.0),
                Map.entry("rayscale_actuator_outcomes_total{outcome=\"APPLIED\"}", 40.0));

        CallFigures figures = CallFigures.of(samples);

        assertThat(figures.kinds()).containsExactly(
                new CallFigures.Kind("GCS DrainNode", 3, 10.0, 0, 0),
                new CallFigures.Kind("Kubernetes raycluster.get", 10, 1500.0, 4, 3));
    }

    @Test
    void aServiceThatCalledNothingHasNoFigures() {
        assertThat(CallFigures.of(Map.of("rayscale_actuator_outcomes_total{outcome=\"APPLIED\"}", 40.0)).kinds()).isEmpty();
    }
}
