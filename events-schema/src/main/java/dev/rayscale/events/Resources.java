package dev.rayscale.events;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.BinaryOperator;

/**
 * An immutable bundle of named resource amounts ({@code {"CPU": 1, "memory": 1073741824}}), in
 * Ray's naming ({@code CPU}, {@code GPU}, {@code TPU}, {@code memory}, custom names).
 *
 * <p>Names are kept sorted so that equal bundles print identically. Zero amounts are dropped: Ray
 * treats an absent resource and a zero one alike, and a canonical form keeps equal shapes equal.
 */
public final class Resources {

    public static final Resources NONE = new Resources(new TreeMap<>());

    private final Map<String, Quantity> amounts;

    private Resources(TreeMap<String, Quantity> amounts) {
        this.amounts = Collections.unmodifiableMap(amounts);
    }

    @JsonCreator
    public static Resources of(Map<String, Quantity> amounts) {
        TreeMap<String, Quantity> sorted = new TreeMap<>();
        amounts.forEach((name, amount) -> {
            Objects.requireNonNull(name, "resource name");
            Objects.requireNonNull(amount, () -> "amount of resource " + name);
            if (name.isBlank()) {
                throw new IllegalArgumentException("resource name must not be blank");
            }
            if (!amount.isZero()) {
                sorted.put(name, amount);
            }
        });
        return sorted.isEmpty() ? NONE : new Resources(sorted);
    }

    /** Builds a bundle from name/amount pairs written as decimal strings: {@code of("CPU", "0.5")}. */
    public static Resources of(String... namesAndAmounts) {
        if (namesAndAmounts.length % 2 != 0) {
            throw new IllegalArgumentException("expected name/amount pairs");
        }
        TreeMap<String, Quantity> amounts = new TreeMap<>();
        for (int i = 0; i < namesAndAmounts.length; i += 2) {
            amounts.put(namesAndAmounts[i], Quantity.parse(namesAndAmounts[i + 1]));
        }
        return of(amounts);
    }

    @JsonValue
    public Map<String, Quantity> asMap() {
        return amounts;
    }

    public Set<String> names() {
        return amounts.keySet();
    }

    public Quantity get(String name) {
        return amounts.getOrDefault(name, Quantity.ZERO);
    }

    public boolean has(String name) {
        return amounts.containsKey(name);
    }

    public boolean isEmpty() {
        return amounts.isEmpty();
    }

    public Resources plus(Resources other) {
        return combine(other, Quantity::plus);
    }

    public Resources minus(Resources other) {
        return combine(other, Quantity::minus);
    }

    public Resources times(long factor) {
        TreeMap<String, Quantity> scaled = new TreeMap<>();
        amounts.forEach((name, amount) -> scaled.put(name, amount.times(factor)));
        return of(scaled);
    }

    /** True if every amount requested here is available in {@code capacity}. */
    public boolean fitsIn(Resources capacity) {
        for (Map.Entry<String, Quantity> wanted : amounts.entrySet()) {
            if (wanted.getValue().compareTo(capacity.get(wanted.getKey())) > 0) {
                return false;
            }
        }
        return true;
    }

    private Resources combine(Resources other, BinaryOperator<Quantity> operation) {
        TreeMap<String, Quantity> result = new TreeMap<>(amounts);
        other.amounts.forEach((name, amount) -> result.put(name, operation.apply(get(name), amount)));
        return of(result);
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof Resources that && amounts.equals(that.amounts);
    }

    @Override
    public int hashCode() {
        return amounts.hashCode();
    }

    @Override
    public String toString() {
        return amounts.toString();
    }
}
