package dev.rayscale.events;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.rayscale.events.codec.EventCodec;
import dev.rayscale.events.codec.EventSchemas;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The schema evolution guard. Within a schema version, change is additive only: every released
 * version's examples, frozen under {@code src/test/resources/released/<release>/}, stay valid for the
 * current schemas and readable by the current Java reader; and the newest release's schemas accept
 * every current example, with the fields they do not know ignored. A breaking change needs a new
 * {@code ce_type} version and schema file, read side by side with the old one, and a new frozen release.
 */
class SchemaEvolutionTest {

    /** Releases whose examples stay frozen, oldest first; the last is the newest. */
    static final List<String> RELEASES = List.of("1.0");

    record Released(String release, Examples.Example example) {
        @Override
        public String toString() {
            return release + ": " + example;
        }
    }

    static Stream<Released> releasedExamples() {
        return RELEASES.stream().flatMap(release -> EventType.ALL.stream().flatMap(type -> frozen(release, type)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("releasedExamples")
    void theCurrentSchemaAcceptsEveryReleasedExample(Released released) {
        assertThat(EventSchemas.shipped().validate(released.example().type(), released.example().document())).isEmpty();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("releasedExamples")
    void theCurrentReaderReadsEveryReleasedExample(Released released) {
        EventCodec<?> codec = new EventCodec<>(released.example().type(), EventSchemas.shipped());
        assertThat(codec.decode(released.example().document())).isNotNull();
    }

    static Stream<Examples.Example> currentExamples() {
        return Examples.all().stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("currentExamples")
    void theNewestReleasedSchemaAcceptsEveryCurrentExample(Examples.Example example) {
        EventSchemas newest = EventSchemas.released("released/" + RELEASES.get(RELEASES.size() - 1));
        ObjectNode withUnknownField = ((ObjectNode) example.document().deepCopy()).put("fieldOfALaterRelease", "ignored");

        assertThat(newest.validate(example.type(), example.document())).isEmpty();
        assertThat(newest.validate(example.type(), withUnknownField)).as("unknown fields are ignored").isEmpty();
    }

    private static Stream<Released> frozen(String release, EventType<?> type) {
        String folder = "released/" + release + "/examples/" + Examples.folder(type);
        try (Stream<Path> files = Files.list(Path.of(SchemaEvolutionTest.class.getClassLoader().getResource(folder).toURI()))) {
            List<Released> examples = files.map(path -> path.getFileName().toString()).filter(name -> name.endsWith(".json")).sorted()
                    .map(name -> new Released(release, new Examples.Example(type, name, read(folder + "/" + name)))).toList();
            return examples.stream();
        } catch (IOException | URISyntaxException e) {
            throw new IllegalStateException("cannot list " + folder, e);
        }
    }

    private static JsonNode read(String resource) {
        return EventSchemas.readResource(resource);
    }
}
