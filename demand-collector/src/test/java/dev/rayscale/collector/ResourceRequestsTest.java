package dev.rayscale.collector;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rayscale.events.ResourceConstraint;
import dev.rayscale.events.Resources;
import dev.rayscale.events.ShapeCount;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** request_resources() as the GCS's KV holds it (fact D48; commands.request_resources), in the formats Ray has written. */
class ResourceRequestsTest {

    @Test
    void readsTheEntriesOfRayThatWritesLabelSelectors() {
        String written = "[{\"resources\": {\"CPU\": 1}, \"label_selector\": {}}, {\"resources\": {\"CPU\": 1}, \"label_selector\": {}}, "
                + "{\"resources\": {\"GPU\": 1, \"CPU\": 4}, \"label_selector\": {\"ray.io/accelerator-type\": \"A100\"}}]";

        assertThat(ResourceRequests.parse(bytes(written))).containsExactly(new ResourceConstraint(List.of(
                new ShapeCount(Resources.of("CPU", "1"), 2), new ShapeCount(Resources.of("CPU", "4", "GPU", "1"), 1))));
    }

    @Test
    void readsTheBareBundlesOfEarlierRay() {
        assertThat(ResourceRequests.parse(bytes("[{\"CPU\": 1}, {\"CPU\": 1}, {\"CPU\": 1}]")))
                .containsExactly(new ResourceConstraint(List.of(new ShapeCount(Resources.of("CPU", "1"), 3))));
    }

    @Test
    void anEmptyListOrEmptyBundlesAskForNothing() {
        assertThat(ResourceRequests.parse(bytes("[]"))).isEmpty();
        assertThat(ResourceRequests.parse(bytes("[{}, {\"resources\": {}, \"label_selector\": {}}]"))).isEmpty();
    }

    @Test
    void whatATenantsDriverWroteIsBoundedAndCheckedWhereRead() {
        assertThatThrownBy(() -> ResourceRequests.parse(bytes("{\"CPU\": 1}"))).hasMessageContaining("not a JSON list");
        assertThatThrownBy(() -> ResourceRequests.parse(bytes("[{\"CPU\": -1}]"))).hasMessageContaining("not a finite amount");
        assertThatThrownBy(() -> ResourceRequests.parse(bytes("[{\"CPU\": \"8\"}]"))).hasMessageContaining("not a finite amount");
        assertThatThrownBy(() -> ResourceRequests.parse(bytes("[{\"CPU\": 1e300}]"))).hasMessageContaining("out of range");
        assertThatThrownBy(() -> ResourceRequests.parse(bytes("[{\"CPU\": 1e999}]"))).hasMessageContaining("not a finite amount");
        assertThatThrownBy(() -> ResourceRequests.parse(bytes("[1]"))).hasMessageContaining("not an object");
        assertThatThrownBy(() -> ResourceRequests.parse(bytes("[{\"CPU\": 1}"))).hasMessageContaining("not JSON");
        String tooMany = "[" + String.join(",", Collections.nCopies(ResourceRequests.MAX_ENTRIES + 1, "{\"CPU\":1}")) + "]";
        assertThatThrownBy(() -> ResourceRequests.parse(bytes(tooMany))).hasMessageContaining("more than " + ResourceRequests.MAX_ENTRIES);
        String wide = "[{" + String.join(",", IntStream.range(0, 65).mapToObj(i -> "\"r" + i + "\": 1").toList()) + "}]";
        assertThatThrownBy(() -> ResourceRequests.parse(bytes(wide))).hasMessageContaining("more than " + ResourceRequests.MAX_RESOURCES);
    }

    private static byte[] bytes(String json) {
        return json.getBytes(StandardCharsets.UTF_8);
    }
}
