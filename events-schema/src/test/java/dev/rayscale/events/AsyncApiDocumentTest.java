package dev.rayscale.events;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.rayscale.events.codec.EventSchemas;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The AsyncAPI document describes the topics, types and schemas the code actually uses. */
class AsyncApiDocumentTest {

    private final JsonNode document = read();

    @Test
    void namesEveryTopicAndDeadLetterTopic() {
        List<String> addresses = new ArrayList<>();
        document.get("channels").forEach(channel -> addresses.add(channel.get("address").asText()));

        assertThat(addresses).containsExactlyInAnyOrder(Topics.SNAPSHOTS, Topics.DECISIONS, Topics.ACTUATIONS,
                Topics.deadLetter("scaling-planner"), Topics.deadLetter("k8s-actuator"));
    }

    @Test
    void listsEveryCloudEventsType() {
        List<String> types = new ArrayList<>();
        document.at("/components/schemas/cloudEventHeaders/properties/ce_type/enum").forEach(type -> types.add(type.asText()));

        assertThat(types).containsExactlyInAnyOrderElementsOf(EventType.ALL.stream().map(EventType::ceType).toList());
    }

    @Test
    void pointsEveryPayloadAtItsShippedSchema() {
        List<String> schemas = new ArrayList<>();
        document.get("components").get("messages").forEach(message -> {
            JsonNode ref = message.at("/payload/schema/$ref");
            if (!ref.isMissingNode()) {
                schemas.add(ref.asText());
            }
        });

        assertThat(schemas).containsExactlyInAnyOrderElementsOf(EventType.ALL.stream().map(type -> "./" + type.schemaResource()).toList());
    }

    /** Every reference resolves to a file beside the document, in the repository and in the jar: no network needed. */
    @Test
    void resolvesEveryReferenceToAFileBesideIt() {
        List<String> references = new ArrayList<>();
        collectReferences(document, references);

        assertThat(references).isNotEmpty().allSatisfy(reference -> {
            if (!reference.startsWith("#")) {
                assertThat(reference).startsWith("./");
                assertThat(AsyncApiDocumentTest.class.getClassLoader().getResource(reference.substring(2)))
                        .as("%s in the jar", reference).isNotNull();
            }
        });
    }

    private static void collectReferences(JsonNode node, List<String> references) {
        if (node.has("$ref")) {
            references.add(node.get("$ref").asText());
        }
        node.forEach(child -> collectReferences(child, references));
    }

    private static JsonNode read() {
        try {
            return new ObjectMapper(new YAMLFactory()).readTree(Path.of("src/main/resources/asyncapi.yaml").toFile());
        } catch (IOException e) {
            throw new IllegalStateException("cannot read asyncapi.yaml", e);
        }
    }
}
