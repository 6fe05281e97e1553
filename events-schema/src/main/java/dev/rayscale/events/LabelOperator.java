package dev.rayscale.events;

/** Ray's label selector operators. */
public enum LabelOperator {
    IN,
    NOT_IN
}
