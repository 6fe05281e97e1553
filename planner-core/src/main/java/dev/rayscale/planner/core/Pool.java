package dev.rayscale.planner.core;

/** Which of a node's two ledgers a placement draws on. */
enum Pool {
    /** Pending tasks, actors and placement groups: the node's available resources. */
    DEMAND,
    /** {@code request_resources} constraints: the node's total resources, as if it were idle. */
    CONSTRAINT
}
