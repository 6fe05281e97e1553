package dev.rayscale.demo;

import dev.rayscale.events.Support;

/** What Rayscale is expected to do for one member of a {@link FleetScenario}. */
public enum Expectation {
    /** Serve it fully: it settles back to minReplicas once its work is done. */
    FULL(Support.FULL),
    /** Serve its work and remove nothing. */
    SCALE_UP_ONLY(Support.SCALE_UP_ONLY),
    /** Leave it alone, with a Warning Event saying which of its versions cannot be served. */
    UNSUPPORTED(Support.UNSUPPORTED),
    /** Hold it, with a Warning Event naming what its owner wrote that Rayscale refuses: nothing patched, nothing grown. */
    HELD(null);

    private final Support support;

    Expectation(Support support) {
        this.support = support;
    }

    /** The support its snapshots say, or null when it is held before any snapshot is made. */
    public Support support() {
        return support;
    }
}
