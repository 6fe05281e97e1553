package dev.rayscale.audit;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.rayscale.events.codec.EventJson;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Determinism, held by recordings the demo made ({@code scripts/record-golden.sh}): the planner of this build, given each
 * recorded snapshot and the policy its decision recorded, gives every recorded decision again, field by field. A planner
 * change that changes decisions on purpose re-makes the recordings in the same commit, and its message says why.
 */
class GoldenRecordingsTest {

    static Stream<Path> recordings() throws IOException, URISyntaxException {
        Path folder = Path.of(GoldenRecordingsTest.class.getClassLoader().getResource("dev/rayscale/audit/golden").toURI());
        return Files.list(folder).filter(file -> file.toString().endsWith(".events.jsonl.gz")).sorted();
    }

    @ParameterizedTest
    @MethodSource("recordings")
    void everyRecordedDecisionIsPlannedAgainIdentically(Path recording) throws IOException {
        Replayer replayer = new Replayer(PolicyOverrides.parse(List.of()), recordedVersion(recording), new WhatIf(), true);
        try (Reads reads = new Reads(new EventReader(true), replayer::accept)) {
            new FileRecords(recording, Selection.ALL).forEach(reads);
        }
        Replayer.Counts counts = replayer.finish();

        assertThat(counts.decisions).isPositive();
        assertThat(counts.identical).as(counts.line()).isEqualTo(counts.decisions);
        assertThat(counts.unreadable).isZero();
        assertThat(counts.unpublished).as("snapshots that got no decision but would get one now").isZero();
    }

    /**
     * The planner version is the project's: a release changes it without changing the planner, so the recordings are
     * replayed as the version that made them, and what is held is the decisions.
     */
    private static String recordedVersion(Path recording) {
        try (BufferedReader lines = new BufferedReader(new InputStreamReader(new GZIPInputStream(Files.newInputStream(recording)),
                StandardCharsets.UTF_8))) {
            for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                JsonNode event = EventJson.mapper().readTree(line);
                if (event.path("data").has("planner")) {
                    return event.get("data").get("planner").get("version").asText();
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        throw new IllegalStateException(recording + " holds no decision");
    }
}
