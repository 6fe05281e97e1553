package dev.rayscale.audit;

import java.io.BufferedReader;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Consumer;
import java.util.zip.GZIPInputStream;
import java.util.zip.ZipException;

/**
 * Reads an export file ({@code .jsonl}, or {@code .jsonl.gz}) line by line. A line that is not an
 * exported record, and a file that ends early, are handed on as {@link Recorded#problem problems} with
 * their line number, and reading goes on where it can.
 */
public final class FileRecords implements RecordSource {

    private final Path file;
    private final Selection selection;
    private final ExportFormat format = new ExportFormat();

    public FileRecords(Path file, Selection selection) {
        this.file = file;
        this.selection = selection;
    }

    @Override
    public String describe() {
        return file.toString();
    }

    @Override
    public void forEach(Consumer<Recorded> sink) throws IOException {
        long number = 0;
        try (InputStream raw = Files.newInputStream(file);
                BufferedReader lines = new BufferedReader(new InputStreamReader(
                        file.toString().endsWith(".gz") ? new GZIPInputStream(raw, 1 << 16) : raw, StandardCharsets.UTF_8), 1 << 16)) {
            String line;
            while ((line = lines.readLine()) != null) {
                number++;
                if (line.isBlank()) {
                    continue;
                }
                Recorded record;
                try {
                    record = format.read(line, number);
                } catch (IOException | RuntimeException unreadable) {
                    sink.accept(Recorded.problem(number, "line " + number + " is not an exported record: " + message(unreadable)));
                    continue;
                }
                if (selection.includesKey(record.key()) && selection.includesTime(record.timestamp())) {
                    sink.accept(record);
                }
            }
        } catch (EOFException | ZipException truncated) {
            sink.accept(Recorded.problem(number + 1, "the file ends early after line " + number + " (truncated?): " + message(truncated)));
        }
    }

    private static String message(Exception error) {
        String message = error.getMessage();
        int end = message == null ? -1 : message.indexOf('\n');
        return message == null ? error.getClass().getSimpleName() : end > 0 ? message.substring(0, end) : message;
    }

    @Override
    public void close() {
        // each forEach opens and closes the file
    }
}
