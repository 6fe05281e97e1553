package dev.rayscale.collector.assembly;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * What the collector keeps of a cluster's GCS process between reads: its session and the last state version read, to
 * tell when a new process started, and what was read of it by the last check (the Ray version the head recorded). A new
 * process starts with a new session, or, with Redis, the same session and a version counter back at 0 (fact A1.3); it
 * writes the client switch from its own config again (D47), so a new process is checked at once. A process restarted with
 * Redis before it served more reads than its successor has when next read cannot be told apart by its counter; the
 * periodic check finds that one. Replaced whole on every transition.
 *
 * @param rayVersion what the head recorded in this process's KV; null until read, or if it could not be
 */
public record GcsProcess(String session, long lastVersion, String rayVersion, Instant checkedAt) {

    /** Before the first read. */
    public static final GcsProcess UNSEEN = new GcsProcess(null, Long.MAX_VALUE, null, Instant.MIN);

    /** A process other than this one: another session, or a version counter that went back. */
    public boolean isOther(String otherSession, long version) {
        return !Objects.equals(session, otherSession) || version < lastVersion;
    }

    /** Whether the process answering with {@code otherSession} at {@code version} is due a check now. */
    public boolean checkDue(String otherSession, long version, Instant now, Duration every) {
        return isOther(otherSession, version) || !now.isBefore(checkedAt.plus(every));
    }

    /** A read of the process answering with {@code otherSession} at {@code version}; what was checked of another is dropped. */
    public GcsProcess read(String otherSession, long version) {
        return isOther(otherSession, version) ? new GcsProcess(otherSession, version, null, Instant.MIN)
                : new GcsProcess(session, version, rayVersion, checkedAt);
    }

    /** Checked at {@code at}: the Ray version it recorded, or, if that could not be read, the one known before. */
    public GcsProcess checked(String recorded, Instant at) {
        return new GcsProcess(session, lastVersion, recorded != null ? recorded : rayVersion, at);
    }
}
