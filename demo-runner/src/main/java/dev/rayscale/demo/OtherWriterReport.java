package dev.rayscale.demo;

import dev.rayscale.events.ActuationCause;
import dev.rayscale.events.ActuationResult;
import dev.rayscale.events.Outcome;
import java.time.Instant;
import java.util.List;
import java.util.Locale;

/**
 * How Rayscale stood with a workload's GitOps tool: the tool's syncs over Rayscale's values, the Warning Events that named
 * it, Rayscale's patches in the contest and the decisions it held.
 *
 * @param contestedPatches Rayscale's patches after the tool's first sync over Rayscale's values, before Rayscale first held
 */
public record OtherWriterReport(String manager, int syncs, List<String> warnings, long contestedPatches, long held) {

    static final String EVENT_REASON = "ReplicasChangedByAnotherWriter";

    static OtherWriterReport of(String manager, int syncs, Instant firstSync, List<String> warnings, List<ActuationResult> actuations) {
        Instant firstHeld = actuations.stream().filter(result -> result.cause() == ActuationCause.OTHER_WRITER)
                .map(ActuationResult::completedAt).min(Instant::compareTo).orElse(Instant.MAX);
        long contested = firstSync == null ? 0 : actuations.stream().filter(result -> result.outcome() == Outcome.APPLIED
                && result.resourceVersionAfter() != null && result.completedAt().isAfter(firstSync) && result.completedAt().isBefore(firstHeld))
                .count();
        long held = actuations.stream().filter(result -> result.cause() == ActuationCause.OTHER_WRITER).count();
        return new OtherWriterReport(manager, syncs, List.copyOf(warnings), contested, held);
    }

    /** The keys the demo's last line adds for such a workload. */
    public String keys() {
        return String.format(Locale.ROOT, " other_writer_syncs=%d other_writer_events=%d contested_patches=%d held=%d", syncs, warnings.size(),
                contestedPatches, held);
    }
}
