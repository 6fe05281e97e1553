package dev.rayscale.events;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.math.BigDecimal;
import java.math.RoundingMode;

/**
 * An exact resource amount in Ray's fixed-point unit: ten-thousandths ({@code 1 CPU = 10000}).
 *
 * <p>Ray keeps resource amounts as 64-bit fixed point with 1/10000 granularity so that repeated
 * acquire/release never drifts; Rayscale does the same. On the wire a quantity is a plain JSON number
 * in Ray's own unit (CPU {@code 0.5}, memory in bytes). Digits past the fourth decimal are rounded
 * half-even, which is what a value read from a Ray {@code double} needs.
 */
public record Quantity(long units) implements Comparable<Quantity> {

    /** Fixed-point units per whole resource unit. */
    public static final long SCALE = 10_000L;
    private static final int SCALE_DIGITS = 4;

    public static final Quantity ZERO = new Quantity(0);
    public static final Quantity ONE = new Quantity(SCALE);

    public static Quantity ofUnits(long units) {
        return units == 0 ? ZERO : new Quantity(units);
    }

    public static Quantity of(long whole) {
        return ofUnits(Math.multiplyExact(whole, SCALE));
    }

    @JsonCreator
    public static Quantity of(BigDecimal amount) {
        BigDecimal scaled = amount.setScale(SCALE_DIGITS, RoundingMode.HALF_EVEN).movePointRight(SCALE_DIGITS);
        try {
            return ofUnits(scaled.longValueExact());
        } catch (ArithmeticException tooLarge) {
            throw new IllegalArgumentException("resource amount " + amount.toPlainString() + " is out of range", tooLarge);
        }
    }

    public static Quantity parse(String amount) {
        try {
            return of(new BigDecimal(amount.trim()));
        } catch (NumberFormatException notANumber) {
            throw new IllegalArgumentException("'" + amount + "' is not a decimal resource amount", notANumber);
        }
    }

    /** Converts a value Ray reported as a {@code double}, rounding to the nearest unit as Ray does. */
    public static Quantity ofDouble(double amount) {
        if (!Double.isFinite(amount)) {
            throw new IllegalArgumentException("resource amount " + amount + " is not finite");
        }
        return of(BigDecimal.valueOf(amount));
    }

    @JsonValue
    public BigDecimal toBigDecimal() {
        return BigDecimal.valueOf(units, SCALE_DIGITS).stripTrailingZeros();
    }

    public Quantity plus(Quantity other) {
        return ofUnits(Math.addExact(units, other.units));
    }

    public Quantity minus(Quantity other) {
        return ofUnits(Math.subtractExact(units, other.units));
    }

    public Quantity times(long factor) {
        return ofUnits(Math.multiplyExact(units, factor));
    }

    public boolean isZero() {
        return units == 0;
    }

    public boolean isPositive() {
        return units > 0;
    }

    public boolean isNegative() {
        return units < 0;
    }

    /** The smallest whole number of units not below this amount, as Kubernetes rounds CPU requests up. */
    public long ceilWhole() {
        return Math.floorDiv(units + SCALE - 1, SCALE);
    }

    @Override
    public int compareTo(Quantity other) {
        return Long.compare(units, other.units);
    }

    @Override
    public String toString() {
        return toBigDecimal().toPlainString();
    }
}
