package dev.rayscale.tune;

/** One policy's replay: what it cost and how long work waited. */
record Outcome(PolicyGrid.Policy policy, Figures figures) {

    /** True when this is no worse than {@code other} in cost and wait p95, and better in one. */
    boolean dominates(Outcome other) {
        Figures a = figures;
        Figures b = other.figures;
        return a.cost() <= b.cost() && a.waitP95() <= b.waitP95() && (a.cost() < b.cost() || a.waitP95() < b.waitP95());
    }
}
