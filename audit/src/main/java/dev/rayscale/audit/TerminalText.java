package dev.rayscale.audit;

import java.io.FilterWriter;
import java.io.IOException;
import java.io.Writer;

/**
 * Text for a terminal, with every control character but the line's own end and tab written as {@code \\uXXXX}. Events carry
 * free text their writers chose (a worker group's name, a reason, a rejection message): raw, an escape sequence in one
 * could move the cursor, clear a line and print a forged {@code audit: ... complete=true} on an operator's terminal.
 */
final class TerminalText extends FilterWriter {

    private static final boolean CARRIAGE_RETURN_ENDS_LINES = System.lineSeparator().indexOf('\r') >= 0;

    TerminalText(Writer out) {
        super(out);
    }

    @Override
    public void write(int c) throws IOException {
        if (passes((char) c)) {
            out.write(c);
        } else {
            out.write(String.format("\\u%04x", c));
        }
    }

    @Override
    public void write(char[] text, int offset, int length) throws IOException {
        int start = offset;
        for (int i = offset; i < offset + length; i++) {
            if (!passes(text[i])) {
                out.write(text, start, i - start);
                write(text[i]);
                start = i + 1;
            }
        }
        out.write(text, start, offset + length - start);
    }

    @Override
    public void write(String text, int offset, int length) throws IOException {
        write(text.toCharArray(), offset, length);
    }

    /** Printable, a line's end or a tab: C0 and C1 controls and DEL are not. */
    private static boolean passes(char c) {
        if (c == '\n' || c == '\t' || c == '\r' && CARRIAGE_RETURN_ENDS_LINES) {
            return true;
        }
        return !(c < 0x20 || c >= 0x7f && c <= 0x9f);
    }
}
