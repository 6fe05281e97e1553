package dev.rayscale.collector.assembly;

import dev.rayscale.events.Quoted;
import java.math.BigDecimal;
import java.util.function.Function;

/**
 * The bounds on what a cluster's owner writes that sizes Rayscale's own work. One shared collector and planner serve every
 * tenant, so a number no real cluster needs ({@code numOfHosts: 5000000}, {@code max-pending-launches: 2000000000}) is
 * refused where it is read: the cluster is held with a Warning Event naming the field and its bound, and no plan opens
 * millions of nodes for it. Each bound is far above what real clusters use.
 */
final class TenantBounds {

    /** Hosts of one multi-host replica: a TPU v4 pod slice of 4,096 chips has 1,024 hosts. */
    static final int MAX_HOSTS = 1_024;
    /** Workers of a cluster ({@code rayscale.dev/max-workers}). */
    static final int MAX_WORKERS = 100_000;
    /** Worker pods pending at once ({@code rayscale.dev/max-pending-launches}). */
    static final int MAX_PENDING_LAUNCHES = 10_000;
    /** {@code rayscale.dev/upscaling-speed}: KubeRay's Aggressive mode is Ray's 1,000. */
    static final BigDecimal MAX_UPSCALING_SPEED = BigDecimal.valueOf(1_000);
    /** {@code rayscale.dev/pending-pod-patience-seconds}: a day. */
    static final long MAX_PATIENCE_SECONDS = 86_400;
    /** The longest annotation value read: every value Rayscale reads is a short number or word. */
    static final int MAX_ANNOTATION = 64;

    private TenantBounds() {
    }

    /** {@code numOfHosts} of a worker group, 1 if absent or below 1. */
    static int hosts(String group, Integer numOfHosts) {
        if (numOfHosts != null && numOfHosts > MAX_HOSTS) {
            throw new IllegalArgumentException("worker group " + Quoted.of(group) + " has numOfHosts " + numOfHosts
                    + ", above the " + MAX_HOSTS + " Rayscale serves");
        }
        return numOfHosts == null || numOfHosts < 1 ? 1 : numOfHosts;
    }

    /**
     * A worker group's {@code replicas} or {@code minReplicas} (0 if absent), whose pods ({@code x hosts}) are at most
     * {@link #MAX_WORKERS}: what KubeRay is asked to run now, unlike {@code maxReplicas}, which KubeRay's CRD defaults to
     * 2,147,483,647 and which only caps.
     */
    static int replicas(String group, String field, Integer value, int hosts) {
        int replicas = value == null ? 0 : value;
        if ((long) replicas * hosts > MAX_WORKERS) {
            throw new IllegalArgumentException("worker group " + Quoted.of(group) + " has " + field + " " + replicas + " of " + hosts
                    + " host(s) each, above the " + MAX_WORKERS + " workers Rayscale serves in a cluster");
        }
        return Math.max(0, replicas);
    }

    /** Reads a whole number from 0 to {@code max}. */
    static Function<String, Integer> count(int max) {
        return value -> within(Integer.valueOf(value), 0, max);
    }

    /** Reads a whole number of seconds from 0 to {@code max}. */
    static Function<String, Long> seconds(long max) {
        return value -> within(Long.valueOf(value), 0L, max);
    }

    /** Reads a positive decimal no larger than {@code max}. */
    static Function<String, BigDecimal> positive(BigDecimal max) {
        return value -> {
            BigDecimal amount = new BigDecimal(value);
            if (amount.signum() <= 0 || amount.compareTo(max) > 0) {
                throw new IllegalArgumentException("must be above 0 and at most " + max.toPlainString());
            }
            return amount;
        };
    }

    private static <T extends Comparable<T>> T within(T value, T min, T max) {
        if (value.compareTo(min) < 0 || value.compareTo(max) > 0) {
            throw new IllegalArgumentException("must be from " + min + " to " + max);
        }
        return value;
    }
}
