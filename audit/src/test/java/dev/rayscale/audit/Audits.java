package dev.rayscale.audit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** Runs an audit over a source and keeps what it told. */
final class Audits implements Auditor.Listener {

    /** The golden recording is 30 s long: edges of 2 s, so that a missing result inside it is missing, not after the range. */
    static final Auditor.Options OPTIONS = new Auditor.Options(Duration.ofSeconds(10), Duration.ofSeconds(2), false);

    final List<Chain> chains = new ArrayList<>();
    final List<Flag> flags = new ArrayList<>();
    Auditor.Totals totals;

    static Audits of(RecordSource source) {
        return of(source, OPTIONS);
    }

    static Audits of(RecordSource source, Auditor.Options options) {
        Audits audit = new Audits();
        Auditor auditor = new Auditor(audit, options);
        try (Reads reads = new Reads(new EventReader(false), auditor::accept)) {
            source.forEach(reads);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        audit.totals = auditor.finish();
        return audit;
    }

    List<Flag.Kind> kinds() {
        return flags.stream().map(Flag::kind).toList();
    }

    @Override
    public void chain(Chain chain) {
        chains.add(chain);
    }

    @Override
    public void flag(Flag flag) {
        flags.add(flag);
    }
}
