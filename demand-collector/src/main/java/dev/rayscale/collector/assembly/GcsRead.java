package dev.rayscale.collector.assembly;

/** The outcome of one read of a cluster's GCS. */
public sealed interface GcsRead {

    /** The GCS answered. */
    record Answered(RayState state) implements GcsRead {
    }

    /** It did not (unreachable, timed out, refused, or answered what could not be read): the state is unknown. */
    record Failed(String error) implements GcsRead {
    }
}
