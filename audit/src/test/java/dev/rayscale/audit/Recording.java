package dev.rayscale.audit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.rayscale.events.codec.EventJson;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import java.util.zip.GZIPInputStream;

/**
 * A recording made by the demo (the golden walk-through: 15 workers up, 3 then 12 removed), as editable
 * export lines, for tests that change one thing in a real history and see what the audit and the replay make of it.
 */
final class Recording {

    static final String GOLDEN = "dev/rayscale/audit/golden/walkthrough.events.jsonl.gz";

    final List<JsonNode> lines;

    private Recording(List<JsonNode> lines) {
        this.lines = lines;
    }

    static Recording golden() {
        try (InputStream in = Recording.class.getClassLoader().getResourceAsStream(GOLDEN);
                BufferedReader reader = new BufferedReader(new InputStreamReader(new GZIPInputStream(in), StandardCharsets.UTF_8))) {
            List<JsonNode> lines = new ArrayList<>();
            for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                lines.add(EventJson.mapper().readTree(line));
            }
            return new Recording(lines);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static Path goldenFile() {
        try {
            return Path.of(Recording.class.getClassLoader().getResource(GOLDEN).toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    List<ObjectNode> of(String topic) {
        return lines.stream().filter(line -> line.path("kafkatopic").asText().equals(topic)).map(ObjectNode.class::cast).toList();
    }

    ObjectNode data(ObjectNode line) {
        return (ObjectNode) line.get("data");
    }

    Recording without(Predicate<JsonNode> gone) {
        lines.removeIf(gone);
        return this;
    }

    Recording insertAfter(JsonNode line, JsonNode added) {
        lines.add(lines.indexOf(line) + 1, added);
        return this;
    }

    Path write(Path folder, String name) {
        Path file = folder.resolve(name);
        try {
            Files.writeString(file, lines.stream().map(JsonNode::toString).collect(Collectors.joining("\n", "", "\n")));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return file;
    }
}
