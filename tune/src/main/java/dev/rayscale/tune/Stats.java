package dev.rayscale.tune;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/** The few order statistics the reconstruction reads. */
final class Stats {

    private Stats() {
    }

    static double median(Collection<Double> values) {
        return quantile(values, 0.5);
    }

    /** The {@code q} quantile (nearest rank) of {@code values}; 0 for none. */
    static double quantile(Collection<Double> values, double q) {
        if (values.isEmpty()) {
            return 0;
        }
        List<Double> sorted = new ArrayList<>(values);
        sorted.sort(null);
        int rank = (int) Math.ceil(q * sorted.size()) - 1;
        return sorted.get(Math.max(0, Math.min(sorted.size() - 1, rank)));
    }
}
