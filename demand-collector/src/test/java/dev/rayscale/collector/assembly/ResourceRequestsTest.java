package dev.rayscale.collector.assembly;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rayscale.events.ResourceConstraint;
import dev.rayscale.events.Resources;
import dev.rayscale.events.ShapeCount;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

/** request_resources() as the GCS's KV holds it (fact D48; commands.request_resources), in the formats Ray has written. */
class ResourceRequestsTest {

    @Test
    void readsTheEntriesOfRayThatWritesLabelSelectors() {
        String written = "[{\"resources\": {\"CPU\": 1}, \"label_selector\": {}}, {\"resources\": {\"CPU\": 1}, \"label_selector\": {}}, "
                + "{\"resources\": {\"GPU\": 1, \"CPU\": 4}, \"label_selector\": {\"ray.io/accelerator-type\": \"A100\"}}]";

        assertThat(ResourceRequests.parse(written)).containsExactly(new ResourceConstraint(List.of(
                new ShapeCount(Resources.of("CPU", "1"), 2), new ShapeCount(Resources.of("CPU", "4", "GPU", "1"), 1))));
    }

    @Test
    void readsTheBareBundlesOfEarlierRay() {
        assertThat(ResourceRequests.parse("[{\"CPU\": 1}, {\"CPU\": 1}, {\"CPU\": 1}]"))
                .containsExactly(new ResourceConstraint(List.of(new ShapeCount(Resources.of("CPU", "1"), 3))));
    }

    @Test
    void anEmptyListOrEmptyBundlesAskForNothing() {
        assertThat(ResourceRequests.parse("[]")).isEmpty();
        assertThat(ResourceRequests.parse("[{}, {\"resources\": {}, \"label_selector\": {}}]")).isEmpty();
    }

    @Test
    void whatATenantsDriverWroteIsBoundedAndCheckedWhereRead() {
        assertThatThrownBy(() -> ResourceRequests.parse("{\"CPU\": 1}")).hasMessageContaining("not a JSON list");
        assertThatThrownBy(() -> ResourceRequests.parse("[{\"CPU\": -1}]")).hasMessageContaining("not a finite amount");
        assertThatThrownBy(() -> ResourceRequests.parse("[{\"CPU\": \"8\"}]")).hasMessageContaining("not a finite amount");
        assertThatThrownBy(() -> ResourceRequests.parse("[{\"CPU\": 1e300}]")).hasMessageContaining("out of range");
        assertThatThrownBy(() -> ResourceRequests.parse("[1]")).hasMessageContaining("not an object");
        assertThatThrownBy(() -> ResourceRequests.parse("[{\"CPU\": 1}")).hasMessageContaining("not JSON");
        String tooMany = "[" + String.join(",", Collections.nCopies(ResourceRequests.MAX_ENTRIES + 1, "{\"CPU\":1}")) + "]";
        assertThatThrownBy(() -> ResourceRequests.parse(tooMany)).hasMessageContaining("at most " + ResourceRequests.MAX_ENTRIES);
    }
}
