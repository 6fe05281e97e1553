package dev.rayscale.planner.core;

import dev.rayscale.events.Quantity;

/**
 * How well a node type suits the requests it would hold, compared as Ray's autoscaler compares them:
 * first avoid a GPU node for work that needs no GPU, then prefer a node that has more of the
 * requested resource kinds, then the highest least-utilised resource, then the highest mean.
 * Utilisation of a resource is {@code total x (used / total)^3}, as Ray weighs it.
 *
 * <p>Floating point appears only here, in ranking candidates; it never enters resource arithmetic.
 * Java's floating point is deterministic, so equal inputs rank equally on every run.
 */
record Score(boolean gpuOk, int matchingKinds, double leastUtilised, double meanUtilised) implements Comparable<Score> {

    static Score of(long[] total, long[] available, boolean[] requestedKinds, boolean gpuRequested, int gpu) {
        boolean gpuNode = gpu >= 0 && total[gpu] > 0;
        int matching = 0;
        double least = Double.MAX_VALUE;
        double sum = 0;
        int counted = 0;
        for (int kind = 0; kind < total.length; kind++) {
            if (requestedKinds[kind] && total[kind] > 0) {
                matching++;
            }
            if (total[kind] <= 0) {
                continue;
            }
            double util = (double) (total[kind] - available[kind]) / total[kind];
            double weighted = ((double) total[kind] / Quantity.SCALE) * util * util * util;
            least = Math.min(least, weighted);
            sum += weighted;
            counted++;
        }
        return new Score(!gpuNode || gpuRequested, matching, counted == 0 ? 0 : least, counted == 0 ? 0 : sum / counted);
    }

    @Override
    public int compareTo(Score other) {
        int result = Boolean.compare(gpuOk, other.gpuOk);
        if (result == 0) {
            result = Integer.compare(matchingKinds, other.matchingKinds);
        }
        if (result == 0) {
            result = Double.compare(leastUtilised, other.leastUtilised);
        }
        if (result == 0) {
            result = Double.compare(meanUtilised, other.meanUtilised);
        }
        return result;
    }
}
