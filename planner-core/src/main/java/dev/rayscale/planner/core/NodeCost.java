package dev.rayscale.planner.core;

import dev.rayscale.events.Resources;
import dev.rayscale.events.WorkerGroup;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.List;

/**
 * What one node of a worker group costs, for economical packing: the group's {@code nodeCost}
 * ({@code rayscale.dev/node-cost} on its pod template, in whatever unit the cluster's groups share),
 * else a default from its resources that ranks node types the way cloud prices roughly do: 1 per CPU,
 * 0.125 per GiB of memory, 25 per GPU or other accelerator; other resources are free.
 */
public final class NodeCost {

    static final BigDecimal PER_CPU = BigDecimal.ONE;
    static final BigDecimal PER_GIB = new BigDecimal("0.125");
    static final BigDecimal PER_ACCELERATOR = BigDecimal.valueOf(25);
    /** Ray's accelerator resources, GPU first. */
    public static final List<String> ACCELERATORS = List.of("GPU", "TPU", "neuron_cores", "HPU", "NPU");

    private static final BigDecimal GIB = BigDecimal.valueOf(1L << 30);

    private NodeCost() {
    }

    public static BigDecimal of(WorkerGroup group) {
        return group.nodeCost() != null ? group.nodeCost() : fromResources(group.resources());
    }

    static BigDecimal fromResources(Resources resources) {
        BigDecimal cost = BigDecimal.ZERO;
        for (var entry : resources.asMap().entrySet()) {
            BigDecimal amount = entry.getValue().toBigDecimal();
            String kind = entry.getKey();
            if (kind.equals("CPU")) {
                cost = cost.add(amount.multiply(PER_CPU));
            } else if (kind.equals("memory")) {
                cost = cost.add(amount.multiply(PER_GIB).divide(GIB, 6, RoundingMode.HALF_EVEN));
            } else if (ACCELERATORS.contains(kind)) {
                cost = cost.add(amount.multiply(PER_ACCELERATOR));
            }
        }
        return cost.stripTrailingZeros();
    }
}
