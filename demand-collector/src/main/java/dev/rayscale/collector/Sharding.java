package dev.rayscale.collector;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.Optional;

/**
 * Splits clusters among collector replicas so that none is polled twice: a cluster belongs to the
 * replica whose ordinal equals the hash of its id modulo the replica count. With a StatefulSet the
 * ordinal is the pod name's trailing number.
 */
@ApplicationScoped
public class Sharding {

    private final int count;
    private final int ordinal;

    @Inject
    public Sharding(CollectorConfig config) {
        this(config.shard().count(), config.shard().ordinal().orElseGet(() -> config.shard().count() == 1 ? 0
                : ordinalOf(Optional.ofNullable(System.getenv("HOSTNAME")))));
    }

    Sharding(int count, int ordinal) {
        if (count < 1 || ordinal < 0 || ordinal >= count) {
            throw new IllegalArgumentException("shard ordinal " + ordinal + " is not within a shard count of " + count);
        }
        this.count = count;
        this.ordinal = ordinal;
    }

    public boolean owns(String clusterId) {
        return Math.floorMod(clusterId.hashCode(), count) == ordinal;
    }

    /** {@code rayscale-collector-2} -> 2; no trailing number -> 0. */
    static int ordinalOf(Optional<String> hostname) {
        return hostname.map(name -> name.replaceAll("^.*?-?(\\d+)$", "$1")).filter(digits -> digits.matches("\\d+"))
                .map(Integer::parseInt).orElse(0);
    }

    public int count() {
        return count;
    }

    public int ordinal() {
        return ordinal;
    }
}
