package dev.rayscale.audit;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.List;

/**
 * A chart axis from zero: ticks a round step apart (1, 2 or 5 times a power of ten), about six of them, the last at
 * or above the largest value, so that a reader can tell any point's value from the ticks either side.
 *
 * @param step the distance between ticks
 * @param top the last tick, where the axis ends
 */
record Axis(double step, double top) {

    private static final int TICKS_WANTED = 6;

    /** An axis from zero that covers {@code max} (a value of zero or less, or not a number, gets an axis up to 1). */
    static Axis covering(double max) {
        double highest = Double.isFinite(max) && max > 0 ? max : 1;
        double rough = highest / TICKS_WANTED;
        double magnitude = Math.pow(10, Math.floor(Math.log10(rough)));
        double fraction = rough / magnitude;
        double step = (fraction <= 1 ? 1 : fraction <= 2 ? 2 : fraction <= 5 ? 5 : 10) * magnitude;
        return new Axis(step, Math.ceil(highest / step - 1e-9) * step);
    }

    List<Double> ticks() {
        List<Double> ticks = new ArrayList<>();
        long count = Math.round(top / step);
        for (long i = 0; i <= count; i++) {
            ticks.add(i * step);
        }
        return ticks;
    }

    /** A tick's label, with as many decimals as the step needs and no more: 0.0, 0.5, 1.0; 0, 200, 400. */
    String label(double value) {
        int decimals = Math.max(0, BigDecimal.valueOf(step).stripTrailingZeros().scale());
        return BigDecimal.valueOf(value).setScale(decimals, RoundingMode.HALF_UP).toPlainString();
    }

    /** Where {@code value} falls along the axis, from 0 (zero) to 1 (the top). */
    double fraction(double value) {
        return value / top;
    }
}
