package dev.rayscale.demo;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The ERROR lines the services logged in a run that are not on the allow-list
 * ({@code service-error-allowlist.txt}, each entry with its reason): a service that logs ERROR in a
 * healthy run has a bug, so a closed-loop run with any of them fails.
 */
public final class ServiceLogs {

    private static final List<Pattern> ALLOWED = allowList();

    private ServiceLogs() {
    }

    /** {@code file: line} for each unexpected ERROR line in the logs under {@code folder}. */
    public static List<String> unexpectedErrors(Path folder) {
        List<String> found = new ArrayList<>();
        if (!Files.isDirectory(folder)) {
            return found;
        }
        try (Stream<Path> logs = Files.list(folder)) {
            for (Path log : logs.filter(file -> file.toString().endsWith(".log")).sorted().toList()) {
                try (Stream<String> lines = Files.lines(log, StandardCharsets.UTF_8)) {
                    lines.filter(line -> line.contains(" ERROR ") && ALLOWED.stream().noneMatch(allowed -> allowed.matcher(line).matches()))
                            .forEach(line -> found.add(log.getFileName() + ": " + line));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the service logs in " + folder, e);
        }
        return found;
    }

    private static List<Pattern> allowList() {
        try (InputStream in = ServiceLogs.class.getClassLoader().getResourceAsStream("service-error-allowlist.txt")) {
            if (in == null) {
                throw new IllegalStateException("service-error-allowlist.txt is missing");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().map(String::strip)
                    .filter(line -> !line.isEmpty() && !line.startsWith("#")).map(Pattern::compile).toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
