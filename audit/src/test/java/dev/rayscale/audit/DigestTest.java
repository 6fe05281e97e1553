package dev.rayscale.audit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rayscale.events.ActuationResult;
import dev.rayscale.events.codec.EventCodec;
import dev.rayscale.events.codec.EventSchemas;
import org.junit.jupiter.api.Test;

/** The one-line digest of an actuation result, as the audit's timeline prints it. */
class DigestTest {

    private static final ActuationResult APPLIED = EventCodec.ACTUATIONS.decode(EventSchemas.readResource("examples/actuation-result/walkthrough.json"));

    @Test
    void anAppliedResultShowsTheResourceVersionBeforeAndAfter() {
        assertThat(Digest.of(APPLIED)).contains("; resourceVersion " + APPLIED.resourceVersionBefore() + " -> " + APPLIED.resourceVersionAfter());
    }

    @Test
    void aResultWrittenWithoutAReadSaysSoInsteadOfAVersionBefore() {
        ActuationResult unread = new ActuationResult(APPLIED.schemaVersion(), APPLIED.id(), APPLIED.cluster(), APPLIED.decisionId(),
                APPLIED.snapshotId(), APPLIED.outcome(), APPLIED.reason(), APPLIED.cause(), null, APPLIED.resourceVersionAfter(),
                APPLIED.groups(), APPLIED.receivedAt(), APPLIED.completedAt(), APPLIED.attempts(), APPLIED.dryRun());

        assertThat(Digest.of(unread)).contains("; resourceVersion (not read) " + APPLIED.resourceVersionAfter()).doesNotContain("null");
    }
}
