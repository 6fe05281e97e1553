package dev.rayscale.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How long a service's calls to what it depends on took, by kind, read from its Prometheus samples at the end of a run:
 * its Kubernetes requests ({@code rayscale_actuator_kubernetes_requests_seconds}, by request) and its GCS calls (gRPC's
 * {@code grpc_client_processing_duration_seconds}, by method). They tell decisions that waited behind slow answers from an
 * actuator slow of its own.
 */
record CallFigures(List<Kind> kinds) {

    /** Calls of one kind since the service started: how many, their mean, and how many took more than 1 s and 5 s. */
    record Kind(String name, long count, double meanMs, long overOneSecond, long overFiveSeconds) {
    }

    /** A family of timed calls: what its kinds are called and the label that tells them apart. */
    private record Family(String callee, String kindLabel) {
    }

    private static final Map<String, Family> FAMILIES = Map.of(
            "rayscale_actuator_kubernetes_requests_seconds", new Family("Kubernetes", "request"),
            "grpc_client_processing_duration_seconds", new Family("GCS", "method"));
    private static final Pattern SAMPLE = Pattern.compile("(\\w+)_(count|sum|bucket)\\{(.*)}");
    private static final Pattern LABEL = Pattern.compile("(\\w+)=\"([^\"]*)\"");

    static CallFigures of(Map<String, Double> samples) {
        Map<String, double[]> byKind = new TreeMap<>();
        samples.forEach((series, value) -> {
            Matcher sample = SAMPLE.matcher(series);
            Family family = sample.matches() ? FAMILIES.get(sample.group(1)) : null;
            if (family == null) {
                return;
            }
            Map<String, String> labels = new TreeMap<>();
            Matcher label = LABEL.matcher(sample.group(3));
            while (label.find()) {
                labels.put(label.group(1), label.group(2));
            }
            String kind = family.callee() + " " + labels.get(family.kindLabel());
            double[] sums = byKind.computeIfAbsent(kind, key -> new double[4]);
            switch (sample.group(2)) {
                case "count" -> sums[0] += value;
                case "sum" -> sums[1] += value;
                default -> {
                    if ("1.0".equals(labels.get("le"))) {
                        sums[2] += value;
                    } else if ("5.0".equals(labels.get("le"))) {
                        sums[3] += value;
                    }
                }
            }
        });
        List<Kind> kinds = new ArrayList<>();
        byKind.forEach((name, sums) -> {
            if (sums[0] > 0) {
                kinds.add(new Kind(name, (long) sums[0], sums[1] * 1000 / sums[0], (long) (sums[0] - sums[2]), (long) (sums[0] - sums[3])));
            }
        });
        return new CallFigures(kinds);
    }

    List<String> lines() {
        return kinds.stream().map(kind -> String.format(Locale.ROOT, "  %-42s %9d %9.1f %9d %9d", kind.name(), kind.count(), kind.meanMs(),
                kind.overOneSecond(), kind.overFiveSeconds())).toList();
    }
}
