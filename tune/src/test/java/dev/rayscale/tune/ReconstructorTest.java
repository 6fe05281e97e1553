package dev.rayscale.tune;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.assertj.core.groups.Tuple.tuple;

import dev.rayscale.audit.EventReader;
import dev.rayscale.audit.FileRecords;
import dev.rayscale.audit.Read;
import dev.rayscale.audit.Selection;
import dev.rayscale.sim.Workload;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The demo's walk-through recording against the workload it was made from ({@code workloads/walkthrough.yaml}): 15 tasks of
 * {CPU: 1} for 120 s, submitted 5 s in; pods up 5 s after their node; 3 nodes, a node added in 60 s; a simulated cluster
 * running 10x the wall clock.
 */
class ReconstructorTest {

    private static RecordedCluster walkthrough() throws IOException {
        RecordedCluster recording = new RecordedCluster();
        new FileRecords(Recordings.file("walkthrough"), Selection.ALL).forEachRead(new EventReader(false), read -> {
            if (read instanceof Read.Snapshot snapshot) {
                recording.accept(snapshot.full());
            }
        });
        return recording;
    }

    @Test
    void theWorkIsFoundFromThePendingCountsAndTheResourcesInUse() throws IOException {
        RecordedCluster recording = walkthrough();
        Reconstruction reconstruction = Reconstructor.of(recording, 1, 1);

        assertThat(recording.clockRate()).isCloseTo(10, within(0.1));
        assertThat(reconstruction.tasks()).isEqualTo(15);
        assertThat(reconstruction.unseenStarts()).isZero();
        List<Workload.Event> submitted = reconstruction.workload().events().stream().filter(event -> event.tasks() != null).toList();
        assertThat(submitted).hasSize(1);
        assertThat(submitted.get(0).tasks().count()).isEqualTo(15);
        assertThat(submitted.get(0).tasks().shape()).containsExactly(Map.entry("CPU", BigDecimal.ONE));
        // Started between two snapshots 10 s apart and ended between two others: the duration is known to a snapshot.
        assertThat(submitted.get(0).tasks().seconds()).isCloseTo(120, within(10.0));
        assertThat(reconstruction.durations()).containsOnlyKeys("CPU");
    }

    @Test
    void podsThatWaitedForANodeMakeANodePool() throws IOException {
        Workload workload = Reconstructor.of(walkthrough(), 1, 1).workload();

        assertThat(workload.nodePool().initialNodes()).isEqualTo(3);
        assertThat(workload.nodePool().podsPerNode()).isEqualTo(1);
        assertThat(workload.nodePool().provisionSeconds() + workload.podStartSeconds()).isCloseTo(65, within(10.0));
        assertThat(workload.podStartSeconds()).isLessThan(15);
        assertThat(workload.cluster().groups()).extracting(Workload.Group::name, Workload.Group::min, Workload.Group::max)
                .containsExactly(tuple("small-group", 0, 20));
    }

    @Test
    void theStretchesScaleTheDurationsAndTheStartUp() throws IOException {
        RecordedCluster recording = walkthrough();
        Reconstruction plain = Reconstructor.of(recording, 1, 1);
        Reconstruction stretched = Reconstructor.of(recording, 1.1, 0.8);

        assertThat(stretched.durations().get("CPU")).isCloseTo(plain.durations().get("CPU") * 1.1, within(1e-9));
        assertThat(stretched.workload().podStartSeconds()).isCloseTo(plain.workload().podStartSeconds() * 0.8, within(1e-9));
    }

    @Test
    void theWorkloadIsAScenarioTheSimulatorReadsBack(@TempDir Path folder) throws IOException {
        Workload workload = Reconstructor.of(walkthrough(), 1, 1).workload();
        Path file = folder.resolve("walkthrough.yaml");
        workload.write(file);

        Workload read = Workload.read(file);
        assertThat(read.events()).isEqualTo(workload.events());
        assertThat(read.cluster().groups()).isEqualTo(workload.cluster().groups());
        assertThat(read.nodePool()).isEqualTo(workload.nodePool());
        assertThat(read.speed()).isEqualTo(10);
    }
}
