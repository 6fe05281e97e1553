package dev.rayscale.events;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.rayscale.events.codec.EventSchemas;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** Native executables read events by reflection; every record and enum of the contract must be registered. */
class NativeImageConfigTest {

    @Test
    void everyRecordAndEnumIsRegisteredForReflection() throws IOException, URISyntaxException {
        JsonNode config = EventSchemas.readResource("META-INF/native-image/dev.rayscale/events-schema/reflect-config.json");
        Set<String> registered = new TreeSet<>();
        config.forEach(entry -> registered.add(entry.get("name").asText()));

        assertThat(registered).containsAll(contractTypes());
    }

    private static List<String> contractTypes() throws IOException, URISyntaxException {
        Path folder = Path.of(ClusterSnapshot.class.getResource("ClusterSnapshot.class").toURI()).getParent();
        try (Stream<Path> files = Files.list(folder)) {
            return files.map(path -> path.getFileName().toString())
                    .filter(name -> name.endsWith(".class") && !name.contains("$"))
                    .map(name -> "dev.rayscale.events." + name.substring(0, name.length() - ".class".length()))
                    .filter(NativeImageConfigTest::isContractType)
                    .sorted().toList();
        }
    }

    private static boolean isContractType(String className) {
        try {
            Class<?> type = Class.forName(className);
            return type.isRecord() || type.isEnum() || type == Resources.class;
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException(e);
        }
    }
}
