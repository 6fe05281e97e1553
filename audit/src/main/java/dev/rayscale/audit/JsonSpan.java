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
        for (int i = start; i < json.length; i++) {
            byte b = json[i];
            if (inString) {
                if (b == '\\') {
                    i++;
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
        return -1;
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
