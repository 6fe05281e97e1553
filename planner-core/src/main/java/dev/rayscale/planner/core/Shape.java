package dev.rayscale.planner.core;

import java.util.Comparator;

/**
 * One resource request shape as a vector, with the positions it asks for, in Ray's sort order.
 *
 * <p>Ray schedules the most demanding requests first: more resource kinds first, then a larger sum
 * of amounts, then by the (name, amount) pairs; {@link #RAY_ORDER} sorts that way, largest first.
 */
final class Shape {

    /** Descending in Ray's order: (number of kinds, sum of amounts, sorted (name, amount) pairs). */
    static final Comparator<Shape> RAY_ORDER = Shape::compareRay;

    final long[] amounts;
    /** Positions with a positive amount. */
    final int[] kinds;
    private final long sum;
    private final ResourceIndex index;

    Shape(long[] amounts, ResourceIndex index) {
        this.amounts = amounts;
        this.index = index;
        int count = 0;
        long total = 0;
        for (long amount : amounts) {
            if (amount > 0) {
                count++;
                total += amount;
            }
        }
        kinds = new int[count];
        for (int i = 0, k = 0; i < amounts.length; i++) {
            if (amounts[i] > 0) {
                kinds[k++] = i;
            }
        }
        sum = total;
    }

    /** How many copies of this shape fit in {@code available}; unbounded for an empty shape. */
    long fitCount(long[] available) {
        long fit = Long.MAX_VALUE;
        for (int kind : kinds) {
            long copies = available[kind] / amounts[kind];
            if (copies < fit) {
                fit = copies;
                if (fit <= 0) {
                    return 0;
                }
            }
        }
        return fit;
    }

    boolean fitsIn(long[] capacity) {
        return fitCount(capacity) > 0;
    }

    void take(long[] available, long copies) {
        for (int kind : kinds) {
            available[kind] -= amounts[kind] * copies;
        }
    }

    void giveBack(long[] available, long copies) {
        take(available, -copies);
    }

    boolean needs(int position) {
        return position >= 0 && amounts[position] > 0;
    }

    private static int compareRay(Shape a, Shape b) {
        int byKinds = Integer.compare(b.kinds.length, a.kinds.length);
        if (byKinds != 0) {
            return byKinds;
        }
        int bySum = Long.compare(b.sum, a.sum);
        if (bySum != 0) {
            return bySum;
        }
        // Python compares sorted (name, amount) item lists; kinds are in name order already.
        for (int i = 0; i < a.kinds.length; i++) {
            int byName = a.index.name(b.kinds[i]).compareTo(a.index.name(a.kinds[i]));
            if (byName != 0) {
                return byName;
            }
            int byAmount = Long.compare(b.amounts[b.kinds[i]], a.amounts[a.kinds[i]]);
            if (byAmount != 0) {
                return byAmount;
            }
        }
        return 0;
    }

    @Override
    public String toString() {
        return index.resources(amounts).toString();
    }
}
