package dev.rayscale.events;

/** The three kinds of demand a snapshot carries. */
public enum DemandKind {
    TASK,
    GANG,
    CONSTRAINT
}
