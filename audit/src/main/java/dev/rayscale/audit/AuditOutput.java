package dev.rayscale.audit;

import java.util.Map;

/** An audit's rendering: told each chain and flag as the audit goes, and the totals at the end. */
public interface AuditOutput extends Auditor.Listener {

    void finish(Auditor.Totals totals);

    /** The last line: counts and whether the chain is complete. */
    static String line(Auditor.Totals totals) {
        long flagged = totals.flags.entrySet().stream().filter(entry -> entry.getKey().fails()).mapToLong(Map.Entry::getValue).sum();
        return "audit: records=" + totals.records + " snapshots=" + totals.snapshots + " decisions=" + totals.decisions + " results="
                + totals.results + " dead_letters=" + totals.deadLetters + " unreadable=" + totals.unreadable + " flagged=" + flagged
                + " complete=" + totals.complete();
    }
}
