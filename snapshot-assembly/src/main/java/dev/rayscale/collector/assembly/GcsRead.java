package dev.rayscale.collector.assembly;

/** The outcome of one read of a cluster's GCS. */
public sealed interface GcsRead {

    /** The code of a GCS that does not serve the autoscaler state service: a Ray before it (fact D54). */
    String NO_AUTOSCALER_SERVICE = "UNIMPLEMENTED";
    /** The code of an answer that could not be used: no state in it, or amounts that do not convert (a NaN, say). */
    String INVALID_REPLY = "INVALID_REPLY";

    /** The GCS answered. */
    record Answered(RayState state) implements GcsRead {
    }

    /**
     * It did not (unreachable, timed out, refused, or answered what could not be read): the state is unknown.
     *
     * @param code the kind of failure: a gRPC status code name, {@code INVALID_REPLY} or {@code CLIENT_ERROR}
     * @param detail what happened, for people
     */
    record Failed(String code, String detail) implements GcsRead {
    }
}
