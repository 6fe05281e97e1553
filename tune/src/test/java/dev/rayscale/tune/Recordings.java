package dev.rayscale.tune;

import dev.rayscale.audit.EventReader;
import dev.rayscale.audit.FileRecords;
import dev.rayscale.audit.Selection;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.file.Path;

/** The demo recordings the tests tune, made by {@code ./rayscale demo --scenario NAME} and kept under test resources. */
final class Recordings {

    private Recordings() {
    }

    static Path file(String name) {
        try {
            return Path.of(Recordings.class.getResource("/recordings/" + name + ".events.jsonl.gz").toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Every snapshot of the recording into {@code tuner}, as {@code rayscale tune --file} reads them. */
    static Tuner read(String name, Tuner tuner) {
        try {
            new FileRecords(file(name), Selection.ALL).forEachRead(new EventReader(false), tuner::read);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return tuner;
    }
}
