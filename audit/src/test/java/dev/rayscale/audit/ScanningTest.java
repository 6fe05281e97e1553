package dev.rayscale.audit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.rayscale.events.Topics;
import dev.rayscale.events.codec.UnsupportedSchemaVersionException;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
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

    /** Word-at-a-time scanning against Jackson's own reading, wherever the value starts and whatever its strings hold. */
    @Test
    void aSpanEndsWhereJacksonSaysForAnyValueAtAnyAlignment() throws IOException {
        Random random = new Random(7);
        ObjectMapper mapper = new ObjectMapper();
        for (int round = 0; round < 2_000; round++) {
            String value = mapper.writeValueAsString(randomValue(random, 3));
            String prefix = "{\"pad\":\"" + "p".repeat(random.nextInt(9)) + "\",\"data\":";
            byte[] json = bytes(prefix + value + "}");
            int start = bytes(prefix).length;
            int expected;
            try (JsonParser parser = mapper.getFactory().createParser(json)) {
                while (parser.nextToken() != JsonToken.FIELD_NAME || !parser.currentName().equals("data")) {
                    // to the data
                }
                parser.nextToken();
                parser.skipChildren();
                expected = (int) parser.currentLocation().getByteOffset();
            }
            assertThat(JsonSpan.end(json, start)).as(value).isEqualTo(expected);
            assertThat(JsonSpan.lastMemberEnd(json, start)).as("from the end: %s", value).isEqualTo(expected);
            assertThat(JsonSpan.closesObject(json, expected)).isTrue();
            assertThat(JsonSpan.end(Arrays.copyOf(json, expected - 1), start)).as("cut short: %s", value).isEqualTo(-1);
        }
    }

    @Test
    void theDataIsFoundFromTheEndOnlyWhenItIsTheLastMember() {
        String value = "{\"a\":[1,{\"b\":\"}\"}]}";
        String prefix = "{\"id\":1,\"data\":";
        assertThat(JsonSpan.lastMemberEnd(bytes(prefix + value + " }\r"), prefix.length())).isEqualTo(prefix.length() + value.length());
        for (String line : new String[] {"{\"data\":" + value + ",\"id\":1}", "{\"data\":" + value, "{\"data\":" + value + "]}",
                "{\"data\":\"text\"}"}) {
            assertThat(JsonSpan.lastMemberEnd(bytes(line), 8)).as(line).isEqualTo(-1);
        }
    }

    /** A file cut short right after a bracket of its last line's data: the line is a problem, not a record with half its data. */
    @Test
    void aLastLineCutShortIsNotTakenAsWhole(@org.junit.jupiter.api.io.TempDir Path folder) throws IOException {
        String whole = Recording.golden().lines.get(0).toString();
        String cut = whole.substring(0, whole.lastIndexOf('}', whole.length() - 2));
        Path file = folder.resolve("cut.jsonl");
        Files.writeString(file, whole + "\n" + cut);

        List<Recorded> records = new ArrayList<>();
        try (FileRecords source = new FileRecords(file, new Selection(Set.of(), null, null))) {
            source.forEach(records::add);
        }

        assertThat(records).hasSize(2);
        assertThat(records.get(0).problem()).isNull();
        assertThat(records.get(1).problem()).contains("line 2 is not an exported record");
    }

    private static Object randomValue(Random random, int depth) {
        String[] texts = {"}", "]", "{[", "\"", "\\", "\\\"", "é€😀", "a\nb", "plain", "", "\\}", "[\"{"};
        Map<String, Object> object = new LinkedHashMap<>();
        int members = random.nextInt(5);
        for (int i = 0; i < members; i++) {
            String key = texts[random.nextInt(texts.length)] + i;
            object.put(key, switch (depth == 0 ? random.nextInt(3) : random.nextInt(5)) {
                case 0 -> texts[random.nextInt(texts.length)] + "x".repeat(random.nextInt(12));
                case 1 -> random.nextInt();
                case 2 -> random.nextBoolean() ? null : 1.5;
                case 3 -> List.of(randomValue(random, depth - 1), texts[random.nextInt(texts.length)]);
                default -> randomValue(random, depth - 1);
            });
        }
        return object;
    }

    @Test
    void linesAreSplitOnTheirEndsWhateverTheirLengthAndTheChunksSize() throws IOException {
        String long1 = "x".repeat(3 << 20);
        assertThat(lines("one\r\n" + long1 + "\n\nlast", 1 << 20)).containsExactly("one", long1, "", "last");

        Random random = new Random(11);
        List<String> many = new ArrayList<>();
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < 5_000; i++) {
            String line = "é".repeat(random.nextInt(3)) + "y".repeat(random.nextInt(40));
            many.add(line);
            text.append(line).append(random.nextBoolean() ? "\n" : "\r\n");
        }
        for (int size : new int[] {1, 7, 64, 1 << 20}) {
            assertThat(lines(text.toString(), size)).as("chunks of %d bytes", size).isEqualTo(many);
        }
    }

    @Test
    void onlyALastLineWithoutItsEndIsSaidToBeUnended() throws IOException {
        for (int size : new int[] {1, 3, 1 << 20}) {
            ByteLines lines = new ByteLines(new ByteArrayInputStream(bytes("a\nbc\nd")), size, Integer.MAX_VALUE);
            List<Boolean> ended = new ArrayList<>();
            for (ByteLines.Chunk chunk = lines.next(); chunk != null; chunk = lines.next()) {
                ended.add(chunk.ended());
            }
            assertThat(ended).as("chunks of %d bytes", size).last().isEqualTo(false);
            assertThat(ended.subList(0, ended.size() - 1)).doesNotContain(false);
            ByteLines whole = new ByteLines(new ByteArrayInputStream(bytes("a\nbc\n")), size, Integer.MAX_VALUE);
            for (ByteLines.Chunk chunk = whole.next(); chunk != null; chunk = whole.next()) {
                assertThat(chunk.ended()).isTrue();
            }
        }
    }

    /** A line beyond the bound stops the reading, after the lines before it; the buffer never grows past it. */
    @Test
    void aLineLongerThanTheBoundIsRefusedAfterTheLinesBeforeIt() throws IOException {
        ByteLines lines = new ByteLines(new ByteArrayInputStream(bytes("short\n" + "x".repeat(5_000) + "\nafter\n")), 64, 1_024);

        assertThat(ByteLines.split(lines.next())).extracting(line -> new String(line, StandardCharsets.UTF_8)).containsExactly("short");
        assertThatThrownBy(lines::next).isInstanceOf(ByteLines.TooLong.class).hasMessage("a line is longer than 1024 bytes");
    }

    private static List<String> lines(String text, int chunkSize) throws IOException {
        ByteLines lines = new ByteLines(new ByteArrayInputStream(bytes(text)), chunkSize, Integer.MAX_VALUE);
        List<String> read = new ArrayList<>();
        for (ByteLines.Chunk chunk = lines.next(); chunk != null; chunk = lines.next()) {
            ByteLines.split(chunk).forEach(line -> read.add(new String(line, StandardCharsets.UTF_8)));
        }
        return read;
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
