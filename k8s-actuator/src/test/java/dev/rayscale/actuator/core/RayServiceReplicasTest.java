package dev.rayscale.actuator.core;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What Rayscale writes into a RayService's rayClusterConfig after writing its active cluster. */
class RayServiceReplicasTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private static ObservedCluster.ObservedGroup group(String name, Integer replicas) {
        return new ObservedCluster.ObservedGroup(name, replicas, 0, 10, 1, List.of("a"), true);
    }

    private static JsonNode config(String json) throws Exception {
        return JSON.readTree(json);
    }

    @Test
    void eachGroupGetsTheReplicasWrittenTestedAgainstWhatWasRead() throws Exception {
        String patch = RayServiceReplicas.patch(List.of(group("serve", 6), group("batch", 2)),
                config("[{\"groupName\":\"serve\",\"replicas\":1},{\"groupName\":\"batch\"}]")).orElseThrow();

        assertThat(patch).isEqualTo("["
                + "{\"op\":\"test\",\"path\":\"/spec/rayClusterConfig/workerGroupSpecs/0/groupName\",\"value\":\"serve\"},"
                + "{\"op\":\"test\",\"path\":\"/spec/rayClusterConfig/workerGroupSpecs/0/replicas\",\"value\":1},"
                + "{\"op\":\"replace\",\"path\":\"/spec/rayClusterConfig/workerGroupSpecs/0/replicas\",\"value\":6},"
                + "{\"op\":\"test\",\"path\":\"/spec/rayClusterConfig/workerGroupSpecs/1/groupName\",\"value\":\"batch\"},"
                + "{\"op\":\"add\",\"path\":\"/spec/rayClusterConfig/workerGroupSpecs/1/replicas\",\"value\":2}]");
    }

    @Test
    void nothingWhenTheyAgreeOrTheGroupsDoNotLineUp() throws Exception {
        assertThat(RayServiceReplicas.patch(List.of(group("serve", 6)), config("[{\"groupName\":\"serve\",\"replicas\":6}]"))).isEmpty();
        assertThat(RayServiceReplicas.patch(List.of(group("serve", 6)), config("[{\"groupName\":\"other\",\"replicas\":1}]")))
                .as("another group at that index: the RayService was changed since").isEmpty();
        assertThat(RayServiceReplicas.patch(List.of(group("serve", 6)), config("{}"))).isEmpty();
        assertThat(RayServiceReplicas.patch(List.of(group("serve", 6)),
                config("[{\"groupName\":\"serve\",\"replicas\":6},{\"groupName\":\"appended\",\"replicas\":0}]")))
                .as("a group appended to the RayService, not yet in the cluster, is left alone").isEmpty();
    }
}
