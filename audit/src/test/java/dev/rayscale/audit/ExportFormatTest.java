package dev.rayscale.audit;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.rayscale.events.codec.EventJson;
import java.io.IOException;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.Test;

class ExportFormatTest {

    private final ExportFormat format = new ExportFormat();

    private String line(Recorded record) throws IOException {
        StringWriter text = new StringWriter();
        try (JsonGenerator out = EventJson.mapper().getFactory().createGenerator(text)) {
            format.write(record, out);
        }
        return text.toString();
    }

    @Test
    void anEventBecomesAStructuredCloudEventAndReadsBackAsTheRecordItWas() throws IOException {
        RecordHeaders headers = new RecordHeaders();
        headers.add("ce_specversion", "1.0".getBytes(StandardCharsets.UTF_8));
        headers.add("ce_id", "e-1".getBytes(StandardCharsets.UTF_8));
        headers.add("ce_type", "dev.rayscale.decision.v1".getBytes(StandardCharsets.UTF_8));
        headers.add("ce_source", "//rayscale.dev/scaling-planner".getBytes(StandardCharsets.UTF_8));
        headers.add("content-type", "application/json".getBytes(StandardCharsets.UTF_8));
        headers.add("dead-letter-reason", "why".getBytes(StandardCharsets.UTF_8));
        Recorded record = new Recorded("rayscale.decisions", 2, 41, 0, 1_764_500_000_123L, "ns/a", headers,
                "{\"schemaVersion\":1,\"id\":\"e-1\"}".getBytes(StandardCharsets.UTF_8));

        String line = line(record);
        Recorded back = format.read(line, 7);

        assertThat(EventJson.mapper().readTree(line).get("type").asText()).isEqualTo("dev.rayscale.decision.v1");
        assertThat(EventJson.mapper().readTree(line).get("data").get("id").asText()).isEqualTo("e-1");
        assertThat(EventJson.mapper().readTree(line).get("partitionkey").asText()).isEqualTo("ns/a");
        assertThat(back.topic()).isEqualTo("rayscale.decisions");
        assertThat(back.partition()).isEqualTo(2);
        assertThat(back.offset()).isEqualTo(41);
        assertThat(back.line()).isEqualTo(7);
        assertThat(back.timestamp()).isEqualTo(1_764_500_000_123L);
        assertThat(back.key()).isEqualTo("ns/a");
        assertThat(new String(back.value(), StandardCharsets.UTF_8)).isEqualTo("{\"schemaVersion\":1,\"id\":\"e-1\"}");
        for (String name : new String[] {"ce_specversion", "ce_id", "ce_type", "ce_source", "content-type", "dead-letter-reason"}) {
            assertThat(back.headers().lastHeader(name).value()).as(name).isEqualTo(headers.lastHeader(name).value());
        }
        assertThat(back.position()).isEqualTo("line 7 (rayscale.decisions/2@41)");
    }

    @Test
    void aRecordWithoutCloudEventsHeadersAndAValueThatIsNotJsonKeepsBoth() throws IOException {
        RecordHeaders headers = new RecordHeaders();
        headers.add("ce_type", "half a header set".getBytes(StandardCharsets.UTF_8));
        byte[] value = {0, (byte) 0xff, 'x'};
        Recorded record = new Recorded("rayscale.snapshots", 0, 5, 0, 1000, null, headers, value);

        Recorded back = format.read(line(record), 1);

        assertThat(back.value()).isEqualTo(value);
        assertThat(back.key()).isNull();
        assertThat(back.headers().toArray()).hasSize(1);
        assertThat(new String(back.headers().lastHeader("ce_type").value(), StandardCharsets.UTF_8)).isEqualTo("half a header set");
    }

    @Test
    void aNullValueStaysNull() throws IOException {
        Recorded back = format.read(line(new Recorded("rayscale.actuations", 0, 1, 0, 1000, "ns/a", new RecordHeaders(), null)), 1);

        assertThat(back.value()).isNull();
    }
}
