package dev.rayscale.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.rayscale.events.ClusterSnapshot;
import dev.rayscale.events.codec.EventCodec;
import dev.rayscale.events.codec.EventJson;
import dev.rayscale.events.codec.EventSchemas;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The bench's partial read of a snapshot gives what the whole read gives, for the fields it follows. */
class SnapshotStampTest {

    @Test
    void everyShippedExampleReadsAsItsBoundSnapshotSays() {
        for (String example : List.of("walkthrough", "gcs-unavailable", "placement-groups", "quota", "ray-too-old", "small-cluster",
                "spec-not-reconciled")) {
            byte[] json = EventSchemas.readResource("examples/cluster-snapshot/" + example + ".json").toString().getBytes(StandardCharsets.UTF_8);
            ClusterSnapshot bound = EventCodec.SNAPSHOTS.decode(json);

            assertThat(SnapshotStamp.of(json)).as(example).isEqualTo(new SnapshotStamp(bound.id(), bound.sequence(),
                    bound.observedAt().toEpochMilli(), bound.sources().gcs().stateVersion()));
        }
    }

    @Test
    void theFieldsAreFoundInAnyOrderAndAnUnreadGcsHasNoStateVersion() {
        JsonNode walkthrough = EventSchemas.readResource("examples/cluster-snapshot/walkthrough.json");
        ObjectNode reordered = EventJson.mapper().createObjectNode();
        reordered.set("sources", walkthrough.get("sources"));
        reordered.set("nodes", walkthrough.get("nodes"));
        reordered.set("observedAt", walkthrough.get("observedAt"));
        reordered.set("sequence", walkthrough.get("sequence"));
        reordered.set("id", walkthrough.get("id"));

        SnapshotStamp stamp = SnapshotStamp.of(reordered.toString().getBytes(StandardCharsets.UTF_8));
        assertThat(stamp.sequence()).isEqualTo(walkthrough.get("sequence").asLong());
        assertThat(stamp.stateVersion()).isEqualTo(walkthrough.at("/sources/gcs/stateVersion").asLong());

        ((ObjectNode) reordered.get("sources").get("gcs")).remove("stateVersion");
        assertThat(SnapshotStamp.of(reordered.toString().getBytes(StandardCharsets.UTF_8)).stateVersion()).isNull();
        reordered.putNull("sources");
        assertThat(SnapshotStamp.of(reordered.toString().getBytes(StandardCharsets.UTF_8)).stateVersion()).as("sources null").isNull();
    }

    @Test
    void whatIsNotASnapshotIsRefused() {
        for (String json : List.of("[1]", "{\"id\":\"a\",\"sequence\":1}", "{\"id\":\"a\",\"sequence\":1,\"observedAt\":\"yesterday\"}", "{\"id\":",
                "{\"id\":\"a\",\"observedAt\":\"2026-12-06T00:00:00Z\",\"sequence\":{\"sequence\":5}}")) {
            assertThatThrownBy(() -> SnapshotStamp.of(json.getBytes(StandardCharsets.UTF_8))).as(json).isInstanceOf(IllegalArgumentException.class);
        }
    }
}
