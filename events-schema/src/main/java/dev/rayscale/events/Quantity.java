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
    /** Digits before the point past which no amount fits in a {@code long} of units (the largest has 15). */
    private static final int MAX_WHOLE_DIGITS = 19;
    /** Significant digits read: more is no resource amount, and rounding them costs time in proportion. */
    private static final int MAX_PRECISION = 64;
    /** The longest amount text parsed, for the same reason. */
    public static final int MAX_TEXT = 64;

    public static final Quantity ZERO = new Quantity(0);
    public static final Quantity ONE = new Quantity(SCALE);

    public static Quantity ofUnits(long units) {
        return units == 0 ? ZERO : new Quantity(units);
    }

    public static Quantity of(long whole) {
        return ofUnits(Math.multiplyExact(whole, SCALE));
    }

    /**
     * The amount in units, rounded half-even past the fourth decimal. Bounded before any arithmetic: rounding
     * {@code 1e99999999} or {@code 1e-99999999} to four decimals takes minutes and gigabytes, and such amounts come from
     * what tenants write (a container's limits, {@code rayStartParams}).
     *
     * @throws IllegalArgumentException if it does not fit in a {@code long} of units, or has more than 64 significant digits
     */
    @JsonCreator
    public static Quantity of(BigDecimal amount) {
        if (amount.signum() == 0) {
            return ZERO;
        }
        int wholeDigits = amount.precision() - amount.scale();
        if (wholeDigits > MAX_WHOLE_DIGITS) {
            throw new IllegalArgumentException("resource amount " + Quoted.of(amount.toString()) + " is out of range");
        }
        if (amount.precision() > MAX_PRECISION) {
            throw new IllegalArgumentException("resource amount " + Quoted.of(amount.toString()) + " has more than " + MAX_PRECISION
                    + " significant digits");
        }
        if (wholeDigits < -SCALE_DIGITS) {
            return ZERO; // below 0.00001: rounds to nothing, and setScale would first divide by a power of ten as long as the exponent
        }
        BigDecimal scaled = amount.setScale(SCALE_DIGITS, RoundingMode.HALF_EVEN).movePointRight(SCALE_DIGITS);
        try {
            return ofUnits(scaled.longValueExact());
        } catch (ArithmeticException tooLarge) {
            throw new IllegalArgumentException("resource amount " + Quoted.of(amount.toPlainString()) + " is out of range", tooLarge);
        }
    }

    public static Quantity parse(String amount) {
        if (amount.length() > MAX_TEXT) {
            throw new IllegalArgumentException("resource amount " + Quoted.of(amount) + " is longer than " + MAX_TEXT + " characters");
        }
        try {
            return of(new BigDecimal(amount.trim()));
        } catch (NumberFormatException notANumber) {
            throw new IllegalArgumentException(Quoted.of(amount) + " is not a decimal resource amount", notANumber);
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
