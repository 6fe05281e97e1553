package dev.rayscale.events;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.rayscale.events.codec.EventCodec;
import dev.rayscale.events.codec.EventSchemas;
import java.math.BigDecimal;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Holds the Java records, the JSON Schemas and the golden examples to one another. A field renamed
 * on one side only fails here: a schema-only rename leaves the example with a property the closed
 * schema rejects (or a required one missing); a Java-only rename loses the field on the way
 * example -> Java -> JSON, so the round trip differs, and the new name is rejected by the closed schema.
 */
class GoldenExamplesTest {

    /** Numbers compare by value: 1 and 1.0 are the same amount. */
    private static final Comparator<JsonNode> SAME_VALUE = (a, b) -> {
        if (a.isNumber() && b.isNumber()) {
            return new BigDecimal(a.asText()).compareTo(new BigDecimal(b.asText()));
        }
        return a.equals(b) ? 0 : 1;
    };

    static List<Examples.Example> examples() {
        return Examples.all();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("examples")
    void exampleValidatesAgainstItsSchema(Examples.Example example) {
        assertThat(EventSchemas.shipped().validate(example.type(), example.document())).isEmpty();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("examples")
    void exampleUsesOnlyPropertiesTheSchemaDeclares(Examples.Example example) {
        assertThat(StrictSchemas.STRICT.validate(example.type(), example.document())).isEmpty();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("examples")
    void exampleSurvivesJavaRoundTrip(Examples.Example example) {
        JsonNode written = roundTrip(example.type(), example.document());

        assertThat(written.equals(SAME_VALUE, example.document()))
                .as("example -> %s -> JSON\nexpected: %s\nwritten:  %s", example.type().displayName(), example.document(), written)
                .isTrue();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("examples")
    void javaWritesOnlyWhatTheSchemaDeclares(Examples.Example example) {
        JsonNode written = roundTrip(example.type(), example.document());

        assertThat(StrictSchemas.STRICT.validate(example.type(), written)).isEmpty();
    }

    @Test
    void examplesExerciseEveryPropertyTheSchemasDeclare() {
        Set<String> declared = new TreeSet<>();
        EventSchemas.FILES.forEach(file -> collectDeclaredProperties(EventSchemas.readResource(file), declared));
        Set<String> used = new TreeSet<>();
        Examples.all().forEach(example -> collectKeys(example.document(), used));

        declared.removeAll(used);
        assertThat(declared).as("schema properties no golden example uses (a rename there would go unnoticed)").isEmpty();
    }

    @Test
    void everyEventTypeHasTheRequiredExamples() {
        for (EventType<?> type : List.of(EventType.SNAPSHOT, EventType.DECISION)) {
            assertThat(Examples.of(type).map(Examples.Example::name))
                    .contains("small-cluster.json", "walkthrough.json", "placement-groups.json", "gcs-unavailable.json");
        }
        assertThat(Examples.of(EventType.ACTUATION)).hasSizeGreaterThanOrEqualTo(3);
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static JsonNode roundTrip(EventType<?> type, JsonNode document) {
        EventCodec codec = new EventCodec(type, EventSchemas.shipped());
        return codec.toTree((RayscaleEvent) codec.decode(document));
    }

    private static void collectDeclaredProperties(JsonNode schema, Set<String> names) {
        JsonNode properties = schema.get("properties");
        if (properties != null && properties.isObject()) {
            properties.fieldNames().forEachRemaining(names::add);
        }
        schema.forEach(child -> collectDeclaredProperties(child, names));
    }

    private static void collectKeys(JsonNode document, Set<String> keys) {
        document.fieldNames().forEachRemaining(keys::add);
        document.forEach(child -> collectKeys(child, keys));
    }
}
