package dev.rayscale.events;

/** How the planner packs demand onto nodes: as Ray does, or as Ray does and then cheaper. */
public enum Packing {
    /** Ray v2's greedy packing, decision for decision. */
    RAY,
    /**
     * Ray's packing, then each newly opened node, the most expensive first, is given up where what it
     * holds fits on the other nodes, or swapped for a cheaper type that holds it all.
     */
    ECONOMICAL
}
