package dev.rayscale.events.codec;

import com.fasterxml.jackson.databind.JsonNode;
import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SchemaRegistryConfig;
import com.networknt.schema.SpecificationVersion;
import com.networknt.schema.path.PathType;
import dev.rayscale.events.EventType;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * The JSON Schemas shipped in this jar under {@code schemas/}, read and compiled once, on first use: a service's
 * serialisers are made while it starts, and the validator (a fifth of a second in a cold JVM) is left to its warm-up.
 * Schemas refer to each other by their {@code $id} under {@value #ID_PREFIX}; those ids are served from the jar, never
 * fetched from the network.
 */
public final class EventSchemas {

    public static final String ID_PREFIX = "https://rayscale.dev/";
    public static final List<String> FILES = List.of(
            "schemas/common.v1.schema.json",
            "schemas/cluster-snapshot.v1.schema.json",
            "schemas/scale-decision.v1.schema.json",
            "schemas/actuation-result.v1.schema.json");

    private static final EventSchemas SHIPPED = new EventSchemas(UnaryOperator.identity());

    private final String folder;
    private final UnaryOperator<JsonNode> edit;
    private volatile Map<EventType<?>, Schema> compiled;

    /**
     * The shipped schemas, each passed through {@code edit} (tests use this to check against a stricter variant).
     */
    public EventSchemas(UnaryOperator<JsonNode> edit) {
        this("", edit);
    }

    /** The schemas found under the classpath folder {@code folder} (empty: this jar's own). */
    private EventSchemas(String folder, UnaryOperator<JsonNode> edit) {
        this.folder = folder;
        this.edit = edit;
    }

    private Map<EventType<?>, Schema> compiled() {
        Map<EventType<?>, Schema> schemas = compiled;
        if (schemas == null) {
            synchronized (this) {
                schemas = compiled;
                if (schemas == null) {
                    schemas = compile();
                    compiled = schemas;
                }
            }
        }
        return schemas;
    }

    private Map<EventType<?>, Schema> compile() {
        Map<String, String> byId = new LinkedHashMap<>();
        for (String file : FILES) {
            byId.put(ID_PREFIX + file, edit.apply(readResource(folder + file)).toString());
        }
        SchemaRegistry registry = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12,
                builder -> builder.schemas(byId)
                        .schemaLoader(loader -> loader.fetchRemoteResources(false))
                        .schemaRegistryConfig(SchemaRegistryConfig.builder().pathType(PathType.JSON_PATH).build()));
        Map<EventType<?>, Schema> schemas = new LinkedHashMap<>();
        for (EventType<?> type : EventType.ALL) {
            schemas.put(type, registry.getSchema(SchemaLocation.of(ID_PREFIX + type.schemaResource())));
        }
        return schemas;
    }

    /**
     * The schemas of another release, read from the classpath folder {@code release} (holding
     * {@code schemas/...} as this jar does): to hold the current events to what earlier readers accept.
     */
    public static EventSchemas released(String release) {
        return new EventSchemas(release + "/", UnaryOperator.identity());
    }

    /** The schemas as shipped. */
    public static EventSchemas shipped() {
        return SHIPPED;
    }

    /** Validates {@code document} against the schema of {@code type}; empty means valid. */
    public List<Error> validate(EventType<?> type, JsonNode document) {
        return compiled().get(type).validate(document);
    }

    /** Reads one of the shipped schema files (or any JSON resource of this jar). */
    public static JsonNode readResource(String path) {
        try {
            return EventJson.mapper().readTree(resourceBytes(path));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + path, e);
        }
    }

    /** The bytes of a resource of this jar, as they are. */
    static byte[] resourceBytes(String path) {
        try (InputStream in = EventSchemas.class.getClassLoader().getResourceAsStream(path)) {
            if (in == null) {
                throw new IllegalStateException("resource " + path + " is missing from the classpath");
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + path, e);
        }
    }
}
