package dev.rayscale.events;

import com.fasterxml.jackson.databind.JsonNode;
import dev.rayscale.events.codec.EventSchemas;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/** The golden example documents shipped under {@code examples/<event>/}. */
final class Examples {

    private Examples() {
    }

    record Example(EventType<?> type, String name, JsonNode document) {
        @Override
        public String toString() {
            return folder(type) + "/" + name;
        }
    }

    static String folder(EventType<?> type) {
        String file = type.schemaResource();
        return file.substring(file.indexOf('/') + 1, file.indexOf(".v"));
    }

    static List<Example> all() {
        return EventType.ALL.stream().flatMap(Examples::of).toList();
    }

    static Stream<Example> of(EventType<?> type) {
        String folder = "examples/" + folder(type);
        try (Stream<Path> files = Files.list(Path.of(Examples.class.getClassLoader().getResource(folder).toURI()))) {
            List<Example> examples = files.map(Path::getFileName).map(Path::toString).filter(f -> f.endsWith(".json")).sorted()
                    .map(f -> new Example(type, f, EventSchemas.readResource(folder + "/" + f))).toList();
            if (examples.isEmpty()) {
                throw new IllegalStateException("no examples in " + folder);
            }
            return examples.stream();
        } catch (IOException | URISyntaxException e) {
            throw new IllegalStateException("cannot list " + folder, e);
        }
    }

    static JsonNode document(EventType<?> type, String name) {
        return of(type).filter(e -> e.name().equals(name + ".json")).findFirst().orElseThrow().document();
    }
}
