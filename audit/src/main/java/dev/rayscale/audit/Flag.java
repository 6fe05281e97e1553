package dev.rayscale.audit;

import java.time.Instant;

/**
 * Something an auditor must see. {@link Kind#fails} tells a broken chain from a note about the range's edges.
 *
 * @param cluster the cluster, or {@code ?} for a record without a readable key
 * @param at the record's time
 * @param position where the record is (topic/partition@offset, or a file's line)
 */
public record Flag(String cluster, Kind kind, Instant at, String detail, String position) {

    public enum Kind {
        DECISION_WITHOUT_RESULT(true),
        RESULT_WITHOUT_DECISION(true),
        APPLIED_TWICE(true),
        SEQUENCE_REVERSAL(true),
        SNAPSHOT_GAP(true),
        SNAPSHOT_MISSING(true),
        DEAD_LETTER(true),
        BAD_RECORD(true),
        /** No record at all: an empty recording, or a selection that matches none, proves nothing. */
        NOTHING_READ(true),
        /** A decision whose result would come after the range ends. */
        OPEN_AT_END(false),
        /** A result, or a decision, whose other end is before the range starts. */
        BEFORE_RANGE(false),
        /** A decision delivered again got another result that changed nothing. */
        REDELIVERED(false);

        private final boolean fails;

        Kind(boolean fails) {
            this.fails = fails;
        }

        public boolean fails() {
            return fails;
        }

        public String label() {
            return name().toLowerCase().replace('_', '-');
        }
    }
}
