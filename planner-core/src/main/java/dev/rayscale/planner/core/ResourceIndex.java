package dev.rayscale.planner.core;

import dev.rayscale.events.Quantity;
import dev.rayscale.events.Resources;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeSet;

/**
 * Gives every resource name of one plan a dense index, so that packing works on {@code long[]}
 * vectors of Ray's fixed-point units rather than on maps.
 */
final class ResourceIndex {

    static final String GPU = "GPU";

    private final String[] names;
    private final Map<String, Integer> positions = new HashMap<>();

    ResourceIndex(TreeSet<String> allNames) {
        names = allNames.toArray(String[]::new);
        for (int i = 0; i < names.length; i++) {
            positions.put(names[i], i);
        }
    }

    int size() {
        return names.length;
    }

    String name(int position) {
        return names[position];
    }

    /** Position of the GPU resource, or -1 if no part of the plan mentions GPUs. */
    int gpu() {
        return positions.getOrDefault(GPU, -1);
    }

    long[] vector(Resources resources) {
        long[] vector = new long[names.length];
        resources.asMap().forEach((name, amount) -> {
            Integer position = positions.get(name);
            if (position == null) {
                throw new IllegalStateException("resource " + name + " was not indexed");
            }
            vector[position] = amount.units();
        });
        return vector;
    }

    Resources resources(long[] vector) {
        Map<String, Quantity> amounts = new HashMap<>();
        for (int i = 0; i < vector.length; i++) {
            if (vector[i] != 0) {
                amounts.put(names[i], Quantity.ofUnits(vector[i]));
            }
        }
        return Resources.of(amounts);
    }

    @Override
    public String toString() {
        return Arrays.toString(names);
    }
}
