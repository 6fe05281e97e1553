package dev.rayscale.audit;

import dev.rayscale.events.codec.EventCodec;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
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
    /** Bytes read at once: some dozens of records of a few KiB each (smaller chunks, less held in flight, less to collect). */
    private static final int CHUNK = 1 << 18;
    /**
     * The longest line read: an exported record is an event of at most {@link EventCodec#MAX_EVENT_BYTES} in an envelope,
     * with room for its escapes. One longer is no export of Rayscale's (a 400 MB line, 400 KB gzipped, had run the CLI out
     * of memory): reading stops with its line number.
     */
    static final int MAX_LINE = 2 * EventCodec.MAX_EVENT_BYTES;

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
     * Every selected record, handed on in the file's order: chunks of whole lines are cut into lines, parsed on every
     * core and each batch {@code prepared}, one chunk after the other (preparing may carry state from one to the next),
     * while the chunk before is handed on. What it holds is about two chunks.
     */
    private <T> void stream(Function<List<Recorded>, List<T>> prepare, Consumer<T> sink) throws IOException {
        CompletableFuture<Prepared<T>> pending = CompletableFuture.completedFuture(new Prepared<>(List.of(), 0));
        try (InputStream raw = Files.newInputStream(file);
                InputStream in = file.toString().endsWith(".gz") ? new GZIPInputStream(raw, 1 << 16) : raw) {
            ByteLines lines = new ByteLines(in, CHUNK, MAX_LINE);
            for (ByteLines.Chunk chunk = lines.next(); chunk != null; chunk = lines.next()) {
                pending = next(pending, chunk, prepare, sink);
            }
        } catch (ByteLines.TooLong tooLong) {
            Prepared<T> before = pending.join();
            before.items().forEach(sink);
            throw new IOException("line " + (before.lines() + 1) + " of " + file + " is longer than " + MAX_LINE
                    + " bytes, more than any exported record holds: not an export of Rayscale's, or damaged", tooLong);
        } catch (EOFException | ZipException truncated) {
            Prepared<T> last = pending.join();
            last.items().forEach(sink);
            prepare.apply(List.of(Recorded.problem(last.lines() + 1, "the file ends early after line " + last.lines() + " (truncated?): "
                    + message(truncated)))).forEach(sink);
            return;
        }
        pending.join().items().forEach(sink);
    }

    /** A chunk's records, prepared, and the number of the chunk's last line. */
    private record Prepared<T>(List<T> items, long lines) {
    }

    private <T> CompletableFuture<Prepared<T>> next(CompletableFuture<Prepared<T>> before, ByteLines.Chunk chunk,
            Function<List<Recorded>, List<T>> prepare, Consumer<T> sink) {
        CompletableFuture<Prepared<T>> next = before.thenApplyAsync(previous -> {
            List<byte[]> lines = ByteLines.split(chunk);
            long first = previous.lines() + 1;
            // A last line without its line end may be cut short: its data is followed bracket by bracket, not taken as whole.
            long unended = chunk.ended() ? -1 : previous.lines() + lines.size();
            List<Recorded> records = IntStream.range(0, lines.size()).parallel()
                    .mapToObj(i -> selected(parse(lines.get(i), first + i, first + i != unended))).filter(Objects::nonNull).toList();
            return new Prepared<>(prepare.apply(records), previous.lines() + lines.size());
        }, Reads.POOL);
        before.join().items().forEach(sink);
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
