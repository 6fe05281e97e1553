package dev.rayscale.audit;

import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;

/** Lines of a stream as UTF-8 bytes, without decoding them: a JSON parser reads the bytes as they are. */
final class ByteLines {

    private final InputStream in;
    private byte[] buffer = new byte[1 << 20];
    private int start;
    private int end;
    /** Where the search for the next line's end goes on: the bytes before it hold none. */
    private int scanned;
    private boolean exhausted;
    private boolean ended = true;

    ByteLines(InputStream in) {
        this.in = in;
    }

    /** The next line without its end ({@code \n} or {@code \r\n}), or null at the end of the stream. */
    byte[] next() throws IOException {
        while (true) {
            int i = newline(Math.max(start, scanned));
            if (i >= 0) {
                int stop = i > start && buffer[i - 1] == '\r' ? i - 1 : i;
                byte[] line = Arrays.copyOfRange(buffer, start, stop);
                start = i + 1;
                scanned = start;
                return line;
            }
            scanned = end;
            if (exhausted) {
                if (start == end) {
                    return null;
                }
                byte[] last = Arrays.copyOfRange(buffer, start, end);
                start = end;
                ended = false;
                return last;
            }
            fill();
        }
    }

    /** Whether the line {@link #next()} returned last ended with a line end: false for a last line without one (cut short?). */
    boolean ended() {
        return ended;
    }

    /** The first {@code \n} at or after {@code from} in what the buffer holds, or -1. */
    private int newline(int from) {
        for (int at = from; at < end; at += ByteWords.WIDTH) {
            long newlines = ByteWords.equal(ByteWords.word(buffer, at, end), (byte) '\n');
            if (newlines != 0) {
                return at + ByteWords.index(newlines);
            }
        }
        return -1;
    }

    private void fill() throws IOException {
        if (start > 0) {
            System.arraycopy(buffer, start, buffer, 0, end - start);
            end -= start;
            scanned -= start;
            start = 0;
        }
        if (end == buffer.length) {
            buffer = Arrays.copyOf(buffer, buffer.length * 2);
        }
        int read = in.read(buffer, end, buffer.length - end);
        if (read < 0) {
            exhausted = true;
        } else {
            end += read;
        }
    }
}
