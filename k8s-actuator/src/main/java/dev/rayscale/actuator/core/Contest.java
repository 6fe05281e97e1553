package dev.rayscale.actuator.core;

import java.time.Duration;
import java.time.Instant;

/**
 * Rayscale's standing with another writer of a cluster's {@code replicas} or {@code workersToDelete}. Rayscale does not
 * fight: once another writer has changed them, Rayscale writes at most {@code maxWrites} more times; if the other writer
 * changes them again after that, Rayscale holds (writes nothing) for {@code hold}, then tries again. A contest ends when
 * no other change is seen for {@code hold}. Two writers that each re-apply their own value would otherwise flap the
 * cluster's size for ever, and KubeRay would delete pods of its own choosing at every flap (fact B6.27).
 *
 * @param lastChange the other write last seen, with the Rayscale write it overwrote (so one change is counted once)
 * @param changedAt when it was seen; null: no contest
 * @param writes Rayscale's writes since the contest began
 * @param heldUntil Rayscale writes nothing to the cluster before this; null: not held
 */
public record Contest(String lastChange, Instant changedAt, int writes, Instant heldUntil) {

    public static final Contest NONE = new Contest(null, null, 0, null);

    /** What a read of the cluster found: the contest now, and whether it began a hold (to say so once). */
    public record Seen(Contest contest, boolean newChange, boolean holdBegan) {
    }

    /** Whether Rayscale must not write to the cluster now. */
    public boolean held(Instant now) {
        return heldUntil != null && now.isBefore(heldUntil);
    }

    /**
     * After a read at {@code now} that found {@code other} (null: the cluster is as Rayscale last wrote it) over the
     * Rayscale write {@code overwritten} (the applied decision's id).
     */
    public Seen read(OtherWrite other, String overwritten, Instant now, int maxWrites, Duration hold) {
        Contest current = this;
        if (heldUntil != null && !held(now) || changedAt != null && !now.isBefore(changedAt.plus(hold))) {
            current = new Contest(lastChange, null, 0, null);
        }
        String change = other == null ? null : overwritten + ": " + other.describe();
        if (change == null || change.equals(current.lastChange)) {
            return new Seen(current, false, false);
        }
        boolean holdBegins = current.changedAt != null && current.writes >= maxWrites;
        return new Seen(new Contest(change, now, current.writes, holdBegins ? now.plus(hold) : null), true, holdBegins);
    }

    /** After Rayscale wrote to the cluster: one more write in the contest, if there is one. */
    public Contest wrote() {
        return changedAt == null ? this : new Contest(lastChange, changedAt, writes + 1, heldUntil);
    }
}
