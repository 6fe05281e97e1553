package dev.rayscale.audit;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.zip.ZipException;

/**
 * A stream's lines as UTF-8 bytes, without decoding them (a JSON parser reads the bytes as they are), taken in two
 * steps so that the costly one runs where there is a core to spare: {@link #next()} reads a chunk of whole lines (it
 * only looks for the chunk's last line end), {@link #split} cuts a chunk into its lines.
 */
final class ByteLines {

    /** Whole lines, the first {@code length} bytes of {@code bytes}; {@code ended} false when the last has no line end (the stream's end). */
    record Chunk(byte[] bytes, int length, boolean ended) {
    }

    /** A line longer than the bound: the first line after the chunks handed on so far. */
    static final class TooLong extends IOException {

        TooLong(int bound) {
            super("a line is longer than " + bound + " bytes");
        }
    }

    private final InputStream in;
    private final int size;
    private final int maxLine;
    private byte[] carried = new byte[0];
    private int carriedLength;
    /** A stream that broke off (a truncated gzip): raised once the whole lines read before it are handed on. */
    private IOException brokenOff;

    /**
     * @param size about how many bytes a chunk holds (more when one line is longer)
     * @param maxLine the longest line read: a longer one is {@link TooLong}, not a buffer grown until memory runs out
     */
    ByteLines(InputStream in, int size, int maxLine) {
        this.in = in;
        this.size = size;
        this.maxLine = maxLine;
    }

    /**
     * The next chunk of whole lines, or null at the end of the stream. When the stream breaks off, the whole lines read
     * before are handed on first, then its exception is thrown.
     *
     * @throws TooLong when the chunk's first line is longer than the bound
     */
    Chunk next() throws IOException {
        if (brokenOff != null) {
            throw brokenOff;
        }
        byte[] buffer = Arrays.copyOf(carried, Math.max(size, carriedLength * 2));
        int length = carriedLength;
        int searched = 0;
        while (true) {
            int read;
            try {
                read = length < buffer.length ? in.read(buffer, length, buffer.length - length) : 0;
            } catch (EOFException | ZipException broken) {
                int last = lastLineEnd(buffer, 0, length);
                if (last < 0) {
                    throw broken;
                }
                brokenOff = broken;
                return new Chunk(buffer, last + 1, true);
            }
            if (read < 0) {
                carriedLength = 0;
                return length == 0 ? null : new Chunk(buffer, length, buffer[length - 1] == '\n');
            }
            length += read;
            if (length == buffer.length) {
                int last = lastLineEnd(buffer, searched, length);
                if (last >= 0) {
                    carriedLength = length - last - 1;
                    carried = Arrays.copyOfRange(buffer, last + 1, length);
                    return new Chunk(buffer, last + 1, true);
                }
                if (length > maxLine) {
                    throw new TooLong(maxLine);
                }
                searched = length;
                buffer = Arrays.copyOf(buffer, buffer.length * 2);  // one line longer than a chunk
            }
        }
    }

    private static int lastLineEnd(byte[] bytes, int from, int to) {
        for (int i = to - 1; i >= from; i--) {
            if (bytes[i] == '\n') {
                return i;
            }
        }
        return -1;
    }

    /** The lines of a chunk, each without its end ({@code \n} or {@code \r\n}). */
    static List<byte[]> split(Chunk chunk) {
        byte[] bytes = chunk.bytes();
        int end = chunk.length();
        List<byte[]> lines = new ArrayList<>();
        int start = 0;
        for (int at = 0; at < end; at += ByteWords.WIDTH) {
            for (long newlines = ByteWords.equal(ByteWords.word(bytes, at, end), (byte) '\n'); newlines != 0; newlines &= newlines - 1) {
                int i = at + ByteWords.index(newlines);
                lines.add(Arrays.copyOfRange(bytes, start, i > start && bytes[i - 1] == '\r' ? i - 1 : i));
                start = i + 1;
            }
        }
        if (start < end) {
            lines.add(Arrays.copyOfRange(bytes, start, end));
        }
        return lines;
    }
}
