package dev.rayscale.audit;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonGenerator;
import dev.rayscale.events.codec.EventJson;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.GZIPOutputStream;

/** Writes records to an export file, one CloudEvent per line; gzip-compressed when the name ends in {@code .gz}. */
public final class Exporter implements AutoCloseable {

    private final JsonGenerator out;
    private final ExportFormat format = new ExportFormat();
    private long written;

    public Exporter(Path file) throws IOException {
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        OutputStream stream = new BufferedOutputStream(Files.newOutputStream(file), 1 << 16);
        if (file.toString().endsWith(".gz")) {
            stream = new GZIPOutputStream(stream, 1 << 16);
        }
        this.out = EventJson.mapper().getFactory().createGenerator(stream, JsonEncoding.UTF8);
        out.setRootValueSeparator(null);
    }

    /** Writes one record; a line of a file that was not a record is not written (an export holds records only). */
    public void write(Recorded record) {
        if (record.problem() != null) {
            return;
        }
        try {
            format.write(record, out);
            out.writeRaw('\n');
            written++;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the export", e);
        }
    }

    public long written() {
        return written;
    }

    @Override
    public void close() throws IOException {
        out.close();
    }
}
