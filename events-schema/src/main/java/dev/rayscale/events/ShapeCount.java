package dev.rayscale.events;

/** {@code count} bundles of one shape. */
public record ShapeCount(Resources shape, long count) {

    public ShapeCount {
        Fields.required(shape, "shape");
        Fields.positive(count, "count");
    }
}
