package dev.rayscale.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rayscale.events.ClusterSnapshot;
import dev.rayscale.events.PlannerInfo;
import dev.rayscale.events.codec.EventJson;
import dev.rayscale.planner.core.PlannerSettings;
import java.io.IOException;
import java.io.InputStream;
import org.junit.jupiter.api.Test;

/**
 * Which clusters' demand waits on purpose: snapshots of one bench cluster, fleet-0444, whose simulated pods were slow to
 * come up. With 100 replicas asked for and none registered, its 166 tasks wait for those launches (the planner's
 * default cap, 100 per cluster); earlier, at 91 replicas and 114 tasks, the planner had room and asked for 9 more.
 */
class ChainReaderTest {

    private static final PlannerInfo PLANNER = new PlannerInfo("test", "sha256:0", PlannerSettings.defaults("test").recorded());

    @Test
    void aClusterAtThePendingLaunchCapWaitsForItsLaunches() throws IOException {
        assertThat(ChainReader.waitsForLaunches(snapshot("waiting-for-launches.json"), ChainReader.plannerOf(PLANNER))).isTrue();
    }

    @Test
    void aClusterWithRoomForLaunchesDoesNotWait() throws IOException {
        assertThat(ChainReader.waitsForLaunches(snapshot("room-for-launches.json"), ChainReader.plannerOf(PLANNER))).isFalse();
    }

    @Test
    void aClusterWaitingForItsLaunchesGetsNoDecisionAndOneWithRoomDoes() throws IOException {
        assertThat(ChainReader.changesNothing(snapshot("waiting-for-launches.json"), ChainReader.plannerOf(PLANNER))).isTrue();
        assertThat(ChainReader.changesNothing(snapshot("room-for-launches.json"), ChainReader.plannerOf(PLANNER))).isFalse();
    }

    private static ClusterSnapshot snapshot(String name) throws IOException {
        try (InputStream in = ChainReaderTest.class.getResourceAsStream("/fleet/" + name)) {
            return EventJson.mapper().readValue(in, ClusterSnapshot.class);
        }
    }
}
