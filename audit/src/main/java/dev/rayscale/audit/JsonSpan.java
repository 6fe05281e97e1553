package dev.rayscale.audit;

/**
 * Finds where a JSON object or array ends without reading it: brackets are counted outside strings. For
 * skipping a value that is read later, if at all; what it spans is not checked to be valid JSON here.
 */
final class JsonSpan {

    private JsonSpan() {
    }

    /** The index just past the object or array that opens at {@code start}, or -1 if it does not close. */
    static int end(byte[] json, int start) {
        int depth = 0;
        boolean inString = false;
        int escaped = -1;
        for (int at = start; at < json.length; at += ByteWords.WIDTH) {
            long word = ByteWords.word(json, at, json.length);
            // '[' and ']' differ from '{' and '}' only in the bit 0x20: one comparison finds both.
            long folded = word | 0x2020202020202020L;
            long marks = ByteWords.equal(word, (byte) '"') | ByteWords.equal(word, (byte) '\\')
                    | ByteWords.equal(folded, (byte) '{') | ByteWords.equal(folded, (byte) '}');
            for (; marks != 0; marks &= marks - 1) {
                int i = at + ByteWords.index(marks);
                if (i == escaped) {
                    continue;
                }
                byte b = json[i];
                if (inString) {
                    if (b == '\\') {
                        escaped = i + 1;
                    } else if (b == '"') {
                        inString = false;
                    }
                } else if (b == '"') {
                    inString = true;
                } else if (b == '{' || b == '[') {
                    depth++;
                } else if (b == '}' || b == ']') {
                    depth--;
                    if (depth == 0) {
                        return i + 1;
                    }
                }
            }
        }
        return -1;
    }

    /**
     * The index just past the object or array that opens at {@code start}, when it is the last member of the object the
     * text holds, found from the end without reading the value: only white space and the object's closing brace follow
     * it. In a CloudEvent every member but {@code data} is a scalar, so an exported line that ends with a closing bracket
     * and the brace ends with its data. -1 when the text does not end so. Only for text known to be whole (a line cut
     * right after a nested bracket would pass): {@link #end} is for the rest.
     */
    static int lastMemberEnd(byte[] json, int start) {
        byte close = json[start] == '{' ? (byte) '}' : json[start] == '[' ? (byte) ']' : 0;
        int i = whitespaceBefore(json, json.length - 1, start);
        if (close == 0 || i <= start || json[i] != '}') {
            return -1;
        }
        i = whitespaceBefore(json, i - 1, start);
        return i > start && json[i] == close ? i + 1 : -1;
    }

    /** The last index at or before {@code from}, and above {@code floor}, that is not white space. */
    private static int whitespaceBefore(byte[] json, int from, int floor) {
        int i = from;
        while (i > floor && Character.isWhitespace(json[i])) {
            i--;
        }
        return i;
    }

    /** True if only white space and the closing brace of the enclosing object follow {@code from}. */
    static boolean closesObject(byte[] json, int from) {
        int i = from;
        while (i < json.length && Character.isWhitespace(json[i])) {
            i++;
        }
        if (i >= json.length || json[i] != '}') {
            return false;
        }
        for (i++; i < json.length; i++) {
            if (!Character.isWhitespace(json[i])) {
                return false;
            }
        }
        return true;
    }
}
