package dev.rayscale.fences.samples.impure;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

public final class ReadsAFile {

    public static String read(Path file) throws IOException {
        return Files.readString(file);
    }
}
