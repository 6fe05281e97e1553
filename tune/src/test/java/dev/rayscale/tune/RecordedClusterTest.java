package dev.rayscale.tune;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rayscale.audit.EventReader;
import dev.rayscale.audit.FileRecords;
import dev.rayscale.audit.Read;
import dev.rayscale.audit.Selection;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** A recording keeps only the moments where something changed, and that loses nothing the figures read. */
class RecordedClusterTest {

    @ParameterizedTest
    @ValueSource(strings = {"walkthrough", "burst", "gpu-mix", "node-pool-wait", "placement-groups"})
    void theMomentsKeptGiveTheFiguresOfEverySnapshot(String name) throws Exception {
        RecordedCluster recording = new RecordedCluster();
        MomentReader reader = new MomentReader(false);
        List<Moment> every = new ArrayList<>();
        new FileRecords(Recordings.file(name), Selection.ALL).forEachRead(new EventReader(false), read -> {
            if (read instanceof Read.Snapshot snapshot) {
                recording.accept(snapshot.full());
                every.add(reader.read(snapshot.full()));
            }
        });

        assertThat(recording.moments()).hasSizeLessThan(every.size());
        assertThat(recording.times()).hasSize(every.size());
        Map<String, Double> costs = recording.nodeCosts();
        // Equal but for the order of a sum's terms in the last bits.
        assertThat(Figures.of(recording.moments(), recording.clockRate(), 50, costs)).usingRecursiveComparison()
                .withComparatorForType((a, b) -> Math.abs(a - b) < 1e-9 ? 0 : Double.compare(a, b), Double.class)
                .isEqualTo(Figures.of(every, recording.clockRate(), 50, costs));
    }
}
