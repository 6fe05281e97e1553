package dev.rayscale.audit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rayscale.events.Topics;
import dev.rayscale.events.codec.UnsupportedSchemaVersionException;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The scanners that let a long history be followed without parsing every snapshot whole. */
class ScanningTest {

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void aSpanEndsAtItsClosingBracketNotAtOneInsideAString() {
        byte[] json = bytes("{\"data\":{\"a\":\"}]\\\"{\",\"b\":[1,{\"c\":2}]},\"after\":1}");
        int start = new String(json, StandardCharsets.UTF_8).indexOf("{\"a\"");

        int end = JsonSpan.end(json, start);

        assertThat(new String(json, start, end - start, StandardCharsets.UTF_8)).isEqualTo("{\"a\":\"}]\\\"{\",\"b\":[1,{\"c\":2}]}");
        assertThat(JsonSpan.closesObject(json, end)).isFalse();
        assertThat(JsonSpan.end(bytes("{\"open\":["), 0)).isEqualTo(-1);
    }

    @Test
    void linesAreSplitOnTheirEndsWhateverTheirLength() throws IOException {
        String long1 = "x".repeat(3 << 20);
        ByteLines lines = new ByteLines(new ByteArrayInputStream(bytes("one\r\n" + long1 + "\n\nlast")));

        List<String> read = new ArrayList<>();
        for (byte[] line = lines.next(); line != null; line = lines.next()) {
            read.add(new String(line, StandardCharsets.UTF_8));
        }

        assertThat(read).containsExactly("one", long1, "", "last");
    }

    @Test
    void aSnapshotsHeadIsReadWithoutTheRestAndChecked() {
        byte[] snapshot = Recording.golden().of(Topics.SNAPSHOTS).get(0).get("data").toString().getBytes(StandardCharsets.UTF_8);

        SnapshotHead head = SnapshotHead.scan(snapshot);

        assertThat(head.cluster().id()).isEqualTo("default/raycluster-walkthrough");
        assertThat(head.id()).isEqualTo("default/raycluster-walkthrough@" + head.sequence());
        assertThat(head.observedAt()).isNotNull();
        assertThatThrownBy(() -> SnapshotHead.scan(bytes("{\"schemaVersion\":2,\"id\":\"x\"}"))).isInstanceOf(UnsupportedSchemaVersionException.class);
        assertThatThrownBy(() -> SnapshotHead.scan(bytes("{\"schemaVersion\":1,\"id\":\"x\",\"sequence\":1}")))
                .hasMessageContaining("$.observedAt");
        assertThatThrownBy(() -> SnapshotHead.scan(bytes("not json"))).hasMessageContaining("not valid JSON");
        assertThatThrownBy(() -> SnapshotHead.scan(new byte[0])).hasMessageContaining("empty");
    }
}
