package dev.rayscale.audit;

import java.time.Instant;
import java.util.Set;

/**
 * Which records a command reads: the clusters (all when empty) and a time range of record timestamps,
 * {@code from} inclusive and {@code to} exclusive, either end open when null.
 */
public record Selection(Set<String> clusters, Instant from, Instant to) {

    public static final Selection ALL = new Selection(Set.of(), null, null);

    public Selection {
        clusters = Set.copyOf(clusters);
        if (from != null && to != null && !from.isBefore(to)) {
            throw new IllegalArgumentException("--from " + from + " is not before --to " + to);
        }
    }

    /** True for a record under {@code key}; a record without a key is kept only when every cluster is read. */
    public boolean includesKey(String key) {
        return clusters.isEmpty() || key != null && clusters.contains(key);
    }

    public boolean includesTime(long timestamp) {
        return (from == null || timestamp >= from.toEpochMilli()) && (to == null || timestamp < to.toEpochMilli());
    }
}
