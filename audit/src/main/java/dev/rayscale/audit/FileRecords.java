package dev.rayscale.audit;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.stream.IntStream;
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
    private static final int BATCH = 256;

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
        stream(batch -> batch, sink);
    }

    /** Reads the events in the pass that parses the lines: one parallel stage, not two. */
    @Override
    public void forEachRead(EventReader reader, Consumer<Read> sink) throws IOException {
        SnapshotJoin join = new SnapshotJoin();
        stream(batch -> reader.readAll(batch, join), sink);
    }

    /**
     * Every selected record, parsed on every core in batches of lines and each batch {@code prepared}, handed on in the
     * file's order. What it holds is two batches.
     */
    private <T> void stream(Function<List<Recorded>, List<T>> prepare, Consumer<T> sink) throws IOException {
        long number = 0;
        // A last line without its line end may be cut short: its data is followed bracket by bracket, not taken as whole.
        long unended = -1;
        List<byte[]> batch = new ArrayList<>(BATCH);
        CompletableFuture<List<T>> parsing = CompletableFuture.completedFuture(List.of());
        try (InputStream raw = Files.newInputStream(file);
                InputStream in = file.toString().endsWith(".gz") ? new GZIPInputStream(raw, 1 << 16) : raw) {
            ByteLines lines = new ByteLines(in);
            byte[] line;
            while ((line = lines.next()) != null) {
                if (!lines.ended()) {
                    unended = number + batch.size() + 1;
                }
                batch.add(line);
                if (batch.size() == BATCH) {
                    parsing = next(parsing, batch, number, unended, prepare, sink);
                    number += batch.size();
                    batch = new ArrayList<>(BATCH);
                }
            }
        } catch (EOFException | ZipException truncated) {
            parsing = next(parsing, batch, number, unended, prepare, sink);
            number += batch.size();
            parsing.join().forEach(sink);
            prepare.apply(List.of(Recorded.problem(number + 1, "the file ends early after line " + number + " (truncated?): "
                    + message(truncated)))).forEach(sink);
            return;
        }
        next(parsing, batch, number, unended, prepare, sink).join().forEach(sink);
    }

    /**
     * Starts parsing a batch of lines on every core, then preparing it, and hands on, meanwhile, the batch prepared
     * before. Batches are prepared one after the other, in order: preparing may carry state from one to the next.
     */
    private <T> CompletableFuture<List<T>> next(CompletableFuture<List<T>> before, List<byte[]> batch, long number, long unended,
            Function<List<Recorded>, List<T>> prepare, Consumer<T> sink) {
        CompletableFuture<List<T>> next = before.thenApplyAsync(previous -> prepare.apply(IntStream.range(0, batch.size()).parallel()
                .mapToObj(i -> selected(parse(batch.get(i), number + i + 1, number + i + 1 != unended))).filter(Objects::nonNull).toList()), Reads.POOL);
        before.join().forEach(sink);
        return next;
    }

    /** The record if the selection takes it (a problem always), else null. */
    private Recorded selected(Recorded record) {
        return record != null && (record.problem() != null || selection.includesKey(record.key()) && selection.includesTime(record.timestamp()))
                ? record : null;
    }

    private Recorded parse(byte[] line, long number, boolean whole) {
        if (isBlank(line)) {
            return null;
        }
        try {
            return format.read(line, number, whole);
        } catch (IOException | RuntimeException unreadable) {
            return Recorded.problem(number, "line " + number + " is not an exported record: " + message(unreadable));
        }
    }

    private static boolean isBlank(byte[] line) {
        for (byte b : line) {
            if (!Character.isWhitespace(b)) {
                return false;
            }
        }
        return true;
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
