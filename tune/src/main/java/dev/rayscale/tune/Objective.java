package dev.rayscale.tune;

import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * What the recommendation optimises over the Pareto front of cost against wait: the lowest cost, the shortest p95 wait,
 * the two balanced (each relative to the recorded policy's replay), or the lowest cost within a p95 wait budget.
 */
public record Objective(Kind kind, Double waitBudgetSeconds) {

    public enum Kind {
        COST, WAIT, BALANCED, BUDGET
    }

    public static Objective of(String name, Double waitBudgetSeconds) {
        if (waitBudgetSeconds != null) {
            if (waitBudgetSeconds < 0) {
                throw new IllegalArgumentException("--wait-budget must not be negative, was " + waitBudgetSeconds);
            }
            return new Objective(Kind.BUDGET, waitBudgetSeconds);
        }
        Kind kind = switch (name.toLowerCase(Locale.ROOT)) {
            case "cost" -> Kind.COST;
            case "wait" -> Kind.WAIT;
            case "balanced" -> Kind.BALANCED;
            default -> throw new IllegalArgumentException("--objective must be cost, wait or balanced (or a --wait-budget), was " + name);
        };
        return new Objective(kind, null);
    }

    String describe() {
        return kind == Kind.BUDGET ? String.format(Locale.ROOT, "lowest cost with wait p95 within %.0f s", waitBudgetSeconds)
                : switch (kind) {
                    case COST -> "lowest cost";
                    case WAIT -> "shortest wait p95";
                    default -> "balanced: cost and wait p95, each against the recorded policy's";
                };
    }

    /** The outcome this objective picks among {@code front}; empty when a budget leaves none. */
    Optional<Outcome> pick(List<Outcome> front, Figures baseline, double resolution) {
        Comparator<Outcome> byCost = Comparator.comparingDouble(outcome -> outcome.figures().cost());
        Comparator<Outcome> byWait = Comparator.comparingDouble(outcome -> outcome.figures().waitP95());
        return switch (kind) {
            case COST -> front.stream().min(byCost.thenComparing(byWait));
            case WAIT -> front.stream().min(byWait.thenComparing(byCost));
            case BUDGET -> front.stream().filter(outcome -> outcome.figures().waitP95() <= waitBudgetSeconds).min(byCost.thenComparing(byWait));
            case BALANCED -> front.stream().min(Comparator.comparingDouble((Outcome outcome) ->
                    outcome.figures().cost() / Math.max(baseline.cost(), 1e-9)
                            + outcome.figures().waitP95() / Math.max(baseline.waitP95(), resolution)).thenComparing(byCost));
        };
    }
}
