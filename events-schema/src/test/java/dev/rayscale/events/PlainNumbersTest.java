package dev.rayscale.events;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rayscale.events.codec.EventCodec;
import dev.rayscale.events.codec.EventJson;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Every JSON the product writes has plain numbers: 100, not 1E+2, as people and most JSON tools read them. */
class PlainNumbersTest {

    @Test
    void amountsAreWrittenPlain() throws Exception {
        assertThat(EventJson.mapper().writeValueAsString(Map.of("CPU", new BigDecimal("1E+2"), "memory", new BigDecimal("1.073741824E+9"))))
                .contains("\"CPU\":100").contains("\"memory\":1073741824").doesNotContain("E+");
    }

    @Test
    void eventsWriteWholeAmountsWithoutExponents() {
        TaskDemand demand = new TaskDemand(Resources.of("CPU", "100", "GPU", "8"), 300);
        ScaleDecision decision = EventCodec.DECISIONS.decode(EventCodec.DECISIONS.encode(new ScaleDecision(ScaleDecision.SCHEMA_VERSION,
                "d", new ClusterRef("ns", "c", "u"), "s", 1, "1", Instant.EPOCH, Instant.EPOCH, List.of(),
                List.of(InfeasibleDemand.task(demand.shape(), demand.count(), InfeasibleReason.NO_GROUP_FITS, "too big")), List.of(),
                List.of(), null, List.of(), List.of(), new PlannerInfo("v", "h"))));

        String json = new String(EventCodec.DECISIONS.encode(decision), StandardCharsets.UTF_8);

        assertThat(json).contains("\"CPU\":100").contains("\"GPU\":8").doesNotContain("E+");
    }
}
