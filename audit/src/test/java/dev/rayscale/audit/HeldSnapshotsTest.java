package dev.rayscale.audit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rayscale.events.ClusterSnapshot;
import dev.rayscale.events.ScaleDecision;
import dev.rayscale.events.Topics;
import dev.rayscale.events.codec.EventCodec;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The window of a cluster's newest snapshots, held in reused buffers: what goes out, in which order, and read back whole. */
class HeldSnapshotsTest {

    /** The golden recording's snapshots, as read; the demo's cluster grows from none to 15 workers, so their sizes differ. */
    private static List<Read.Snapshot> snapshots() {
        List<Read.Snapshot> snapshots = new ArrayList<>();
        for (var line : Recording.golden().of(Topics.SNAPSHOTS)) {
            byte[] json = line.get("data").toString().getBytes(StandardCharsets.UTF_8);
            snapshots.add(new Read.Snapshot(new Recorded(Topics.SNAPSHOTS, 0, snapshots.size(), 0, 0, null, null, json), SnapshotHead.scan(json),
                    null));
        }
        return snapshots;
    }

    @Test
    void holdsTheNewestAndHandsOnTheOldestReadableAsItGoes() {
        List<Read.Snapshot> snapshots = snapshots();
        HeldSnapshots window = new HeldSnapshots(3);
        List<ClusterSnapshot> evicted = new ArrayList<>();
        for (Read.Snapshot snapshot : snapshots) {
            window.add(snapshot, oldest -> evicted.add(oldest.full()));
        }
        assertThat(window.size()).isEqualTo(3);
        assertThat(evicted).extracting(ClusterSnapshot::id)
                .containsExactlyElementsOf(snapshots.subList(0, snapshots.size() - 3).stream().map(s -> s.head().id()).toList());
        // Every buffer was reused by snapshots of other lengths: what is read back is each snapshot exactly.
        assertThat(evicted).isEqualTo(snapshots.subList(0, snapshots.size() - 3).stream().map(Read.Snapshot::full).toList());
        Read.Snapshot newest = snapshots.get(snapshots.size() - 1);
        assertThat(window.full(newest.head().id())).isEqualTo(EventCodec.SNAPSHOTS.bind(newest.origin().value()));
        assertThat(window.full("default/other@1")).isNull();
    }

    /** While reading, each decision gets the snapshot it answered, read whole, as long as it is among the newest held. */
    @Test
    void aJoinGivesEachDecisionItsSnapshotWhole() {
        Recording golden = Recording.golden();
        List<Recorded> records = new ArrayList<>();
        for (var line : golden.lines) {
            try {
                records.add(new ExportFormat().read(line.toString(), records.size() + 1));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        EventReader reader = new EventReader(true);
        SnapshotJoin join = new SnapshotJoin();
        List<Read> joined = new ArrayList<>();
        for (int from = 0; from < records.size(); from += 7) {
            joined.addAll(reader.readAll(records.subList(from, Math.min(records.size(), from + 7)), join));
        }

        assertThat(joined).hasSameSizeAs(records);
        List<Read.Event> decisions = joined.stream().filter(read -> read instanceof Read.Event event
                && event.event() instanceof ScaleDecision).map(Read.Event.class::cast).toList();
        assertThat(decisions).isNotEmpty().allSatisfy(read -> {
            var decision = (ScaleDecision) read.event();
            assertThat(read.answered()).as(decision.id()).isNotNull();
            assertThat(read.answered().id()).isEqualTo(decision.snapshotId());
            Read.Snapshot original = joined.stream().filter(r -> r instanceof Read.Snapshot s && s.head().id().equals(decision.snapshotId()))
                    .map(Read.Snapshot.class::cast).findFirst().orElseThrow();
            assertThat(read.answered()).isEqualTo(original.full());
        });
    }

    @Test
    void takingOneTakesTheOlderOnesWithItInOrder() {
        List<Read.Snapshot> snapshots = snapshots().subList(0, 4);
        HeldSnapshots window = new HeldSnapshots(4);
        snapshots.forEach(snapshot -> window.add(snapshot, unexpected -> {
            throw new AssertionError("nothing is evicted below capacity");
        }));
        List<String> older = new ArrayList<>();

        assertThat(window.takeThrough("default/none@1", held -> older.add(held.id()))).isNull();
        assertThat(window.size()).isEqualTo(4);
        HeldSnapshots.Held third = window.takeThrough(snapshots.get(2).head().id(), held -> older.add(held.id()));

        assertThat(third.full()).isEqualTo(snapshots.get(2).full());
        assertThat(older).containsExactly(snapshots.get(0).head().id(), snapshots.get(1).head().id());
        List<String> rest = new ArrayList<>();
        window.drain(held -> rest.add(held.id()));
        assertThat(rest).containsExactly(snapshots.get(3).head().id());
        assertThat(window.size()).isZero();
    }
}
