package dev.rayscale.planner.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;

/**
 * A lower bound on what any packing must spend on new nodes: the linear-programming relaxation of the
 * covering problem, min {@code sum cost_t x_t} subject to {@code sum capacity_t,k x_t >= need_k} for
 * every resource kind k and {@code x >= 0}, where {@code need_k} is the placed demand beyond what the
 * existing nodes have free. Fragmentation, label selectors, placement strategies and replica limits
 * are all relaxed away, so the bound is below the true optimum; the gap to it is an upper bound on the
 * gap to optimal. Solved exactly by visiting every vertex: with at most three kinds, a vertex has at
 * most three node types in use and three constraints tight.
 */
final class CoveringBound {

    private static final double EPSILON = 1e-9;

    private CoveringBound() {
    }

    /**
     * @param capacity capacity[t][k] of one node of type t
     * @param cost cost[t] of one node of type t
     * @param need need[k]; kinds with nothing needed are not constraints
     */
    static double of(double[][] capacity, double[] cost, double[] need) {
        int kinds = need.length;
        int[] needed = IntStream.range(0, kinds).filter(k -> need[k] > EPSILON).toArray();
        if (needed.length == 0) {
            return 0;
        }
        double best = Double.POSITIVE_INFINITY;
        for (int size = 1; size <= needed.length; size++) {
            for (int[] rows : subsets(needed.length, size)) {
                for (int[] columns : subsets(capacity.length, size)) {
                    double[] x = solve(capacity, need, needed, rows, columns);
                    if (x != null && covers(capacity, need, needed, columns, x)) {
                        double spent = 0;
                        for (int i = 0; i < columns.length; i++) {
                            spent += cost[columns[i]] * x[i];
                        }
                        best = Math.min(best, spent);
                    }
                }
            }
        }
        return best;
    }

    /** Solves capacity[columns] x = need on the given rows (Gaussian elimination); null if singular or negative. */
    private static double[] solve(double[][] capacity, double[] need, int[] needed, int[] rows, int[] columns) {
        int n = rows.length;
        double[][] m = new double[n][n + 1];
        for (int r = 0; r < n; r++) {
            int kind = needed[rows[r]];
            for (int c = 0; c < n; c++) {
                m[r][c] = capacity[columns[c]][kind];
            }
            m[r][n] = need[kind];
        }
        for (int pivot = 0; pivot < n; pivot++) {
            int best = pivot;
            for (int r = pivot + 1; r < n; r++) {
                if (Math.abs(m[r][pivot]) > Math.abs(m[best][pivot])) {
                    best = r;
                }
            }
            if (Math.abs(m[best][pivot]) < EPSILON) {
                return null;
            }
            double[] swap = m[pivot];
            m[pivot] = m[best];
            m[best] = swap;
            for (int r = 0; r < n; r++) {
                if (r != pivot) {
                    double factor = m[r][pivot] / m[pivot][pivot];
                    for (int c = pivot; c <= n; c++) {
                        m[r][c] -= factor * m[pivot][c];
                    }
                }
            }
        }
        double[] x = new double[n];
        for (int r = 0; r < n; r++) {
            x[r] = m[r][n] / m[r][r];
            if (x[r] < -EPSILON) {
                return null;
            }
        }
        return x;
    }

    private static boolean covers(double[][] capacity, double[] need, int[] needed, int[] columns, double[] x) {
        for (int kind : needed) {
            double supplied = 0;
            for (int i = 0; i < columns.length; i++) {
                supplied += capacity[columns[i]][kind] * x[i];
            }
            if (supplied < need[kind] * (1 - 1e-9) - EPSILON) {
                return false;
            }
        }
        return true;
    }

    private static List<int[]> subsets(int n, int size) {
        List<int[]> subsets = new ArrayList<>();
        collect(n, size, 0, new int[size], 0, subsets);
        return subsets;
    }

    private static void collect(int n, int size, int from, int[] chosen, int filled, List<int[]> out) {
        if (filled == size) {
            out.add(chosen.clone());
            return;
        }
        for (int i = from; i < n; i++) {
            chosen[filled] = i;
            collect(n, size, i + 1, chosen, filled + 1, out);
        }
    }
}
