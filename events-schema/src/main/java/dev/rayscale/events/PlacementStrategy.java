package dev.rayscale.events;

/** Ray placement group strategies. */
public enum PlacementStrategy {
    /** All bundles on as few nodes as possible; one node preferred. */
    PACK,
    /** Bundles on distinct nodes where possible. */
    SPREAD,
    /** All bundles on one node, or not at all. */
    STRICT_PACK,
    /** Every bundle on a different node, or not at all. */
    STRICT_SPREAD
}
